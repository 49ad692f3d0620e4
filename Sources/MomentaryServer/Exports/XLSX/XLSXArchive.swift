import Foundation
import ZIPFoundation

/// Zips a workbook's parts into an `.xlsx` file with ZIPFoundation, reading each worksheet from
/// its temporary files a chunk at a time, so a workbook of any size needs little memory.
enum XLSXArchive {
    private static let chunkSize = 256 * 1024

    static func write(_ sheets: [XLSXSheet], to url: URL) throws {
        let archive = try Archive(url: url, accessMode: .create)
        try add(XLSXPackage.contentTypes(sheetCount: sheets.count), at: "[Content_Types].xml", to: archive)
        try add(XLSXPackage.rootRelationships, at: "_rels/.rels", to: archive)
        try add(XLSXPackage.workbook(sheetNames: sheets.map(\.name)), at: "xl/workbook.xml", to: archive)
        try add(XLSXPackage.workbookRelationships(sheetCount: sheets.count), at: "xl/_rels/workbook.xml.rels", to: archive)
        try add(XLSXPackage.styles, at: "xl/styles.xml", to: archive)
        for (index, sheet) in sheets.enumerated() {
            let source = try SheetSource(sheet)
            defer { source.close() }
            try archive.addEntry(
                with: XLSXPackage.worksheetPath(index + 1), type: .file, uncompressedSize: sheet.size,
                compressionMethod: .deflate, bufferSize: chunkSize
            ) { position, size in
                try source.read(at: position, count: size)
            }
        }
    }

    private static func add(_ text: String, at path: String, to archive: Archive) throws {
        let data = Data(text.utf8)
        try archive.addEntry(
            with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
        ) { position, size in
            let start = Int(position)
            return data.subdata(in: start..<min(start + size, data.count))
        }
    }
}

/// A worksheet's bytes as one sequence: head, then the body file, then tail.
private final class SheetSource {
    private let sheet: XLSXSheet
    private let body: FileHandle

    init(_ sheet: XLSXSheet) throws {
        self.sheet = sheet
        self.body = try FileHandle(forReadingFrom: sheet.bodyURL)
    }

    func read(at position: Int64, count: Int) throws -> Data {
        var result = Data()
        var position = position
        var remaining = Int64(count)
        let headEnd = Int64(sheet.head.count)
        let bodyEnd = headEnd + sheet.bodySize
        while remaining > 0, position < sheet.size {
            let taken: Data
            if position < headEnd {
                taken = sheet.head.subdata(in: Int(position)..<Int(min(headEnd, position + remaining)))
            } else if position < bodyEnd {
                try body.seek(toOffset: UInt64(position - headEnd))
                taken = try body.read(upToCount: Int(min(bodyEnd - position, remaining))) ?? Data()
                if taken.isEmpty { throw ExportRequestError("A workbook sheet's temporary file ended early.") }
            } else {
                let start = Int(position - bodyEnd)
                taken = sheet.tail.subdata(in: start..<min(sheet.tail.count, start + Int(remaining)))
            }
            result.append(taken)
            position += Int64(taken.count)
            remaining -= Int64(taken.count)
        }
        return result
    }

    func close() {
        try? body.close()
    }
}
