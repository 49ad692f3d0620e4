import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ZIPFoundation

/// Opens an exported workbook the way a spreadsheet program must: unzips it, follows the
/// relationships from the workbook to each sheet, and reads the cells of a sheet.
struct XLSXInspection {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// A cell as read: its column (from 0), type attribute, style and text.
    struct Cell: Equatable {
        var column: Int
        var type: String?
        var style: String?
        var text: String
    }

    let parts: [String: Data]

    init(data: Data) throws {
        let archive = try Archive(data: data, accessMode: .read)
        var parts: [String: Data] = [:]
        for entry in archive {
            var contents = Data()
            _ = try archive.extract(entry) { contents.append($0) }
            parts[entry.path] = contents
        }
        self.parts = parts
    }

    func text(_ path: String) throws -> String {
        guard let data = parts[path] else { throw Problem(description: "the workbook has no part \(path)") }
        return String(decoding: data, as: UTF8.self)
    }

    var sheetNames: [String] {
        (try? sheets().map(\.name)) ?? []
    }

    /// Sheet names with their part paths, resolved through `xl/_rels/workbook.xml.rels`.
    func sheets() throws -> [(name: String, path: String)] {
        let workbook = try XMLElements(try text("xl/workbook.xml"), named: "sheet")
        let relationships = try XMLElements(try text("xl/_rels/workbook.xml.rels"), named: "Relationship")
        var targets: [String: String] = [:]
        for relationship in relationships.elements {
            if let id = relationship["Id"], let target = relationship["Target"] { targets[id] = "xl/" + target }
        }
        return try workbook.elements.map { sheet in
            guard let name = sheet["name"], let id = sheet["r:id"], let path = targets[id] else {
                throw Problem(description: "a sheet without name or relationship: \(sheet)")
            }
            return (name, path)
        }
    }

    func sheetXML(_ name: String) throws -> String {
        guard let path = try sheets().first(where: { $0.name == name })?.path else {
            throw Problem(description: "no sheet named \(name)")
        }
        return try text(path)
    }

    var allSheetXML: String {
        get throws { try sheets().map { try text($0.path) }.joined() }
    }

    /// The rows of a sheet as texts by column (gaps filled with ""), header first.
    func rows(of name: String) throws -> [[String]] {
        try cells(of: name).map { row in
            var texts = Array(repeating: "", count: (row.map(\.column).max() ?? -1) + 1)
            for cell in row { texts[cell.column] = cell.text }
            return texts
        }
    }

    func cells(of name: String) throws -> [[Cell]] {
        let reader = SheetReader()
        let parser = XMLParser(data: Data(try sheetXML(name).utf8))
        parser.delegate = reader
        guard parser.parse() else {
            throw Problem(description: "sheet \(name) is not well-formed XML: \(String(describing: parser.parserError))")
        }
        return reader.rows
    }
}

/// The attributes of every element with one name.
private struct XMLElements {
    let elements: [[String: String]]

    init(_ xml: String, named name: String) throws {
        let collector = AttributeCollector(name: name)
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        guard parser.parse() else {
            throw XLSXInspection.Problem(description: "not well-formed XML: \(xml.prefix(200))")
        }
        elements = collector.found
    }
}

private final class AttributeCollector: NSObject, XMLParserDelegate {
    let name: String
    var found: [[String: String]] = []

    init(name: String) {
        self.name = name
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        if elementName == name { found.append(attributes) }
    }
}

private final class SheetReader: NSObject, XMLParserDelegate {
    var rows: [[XLSXInspection.Cell]] = []
    private var cell: XLSXInspection.Cell?
    private var collecting = false

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        switch elementName {
        case "row": rows.append([])
        case "c":
            let reference = attributes["r"] ?? ""
            cell = XLSXInspection.Cell(column: Self.column(of: reference), type: attributes["t"], style: attributes["s"], text: "")
        case "v", "t": collecting = cell != nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if collecting { cell?.text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        switch elementName {
        case "v", "t": collecting = false
        case "c":
            if let cell { rows[rows.count - 1].append(cell) }
            cell = nil
        default: break
        }
    }

    /// `A1` → 0, `AB7` → 27.
    private static func column(of reference: String) -> Int {
        var number = 0
        for scalar in reference.unicodeScalars where scalar.properties.isUppercase {
            number = number * 26 + Int(scalar.value - 64)
        }
        return number - 1
    }
}
