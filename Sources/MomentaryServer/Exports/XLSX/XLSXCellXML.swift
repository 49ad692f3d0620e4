import Foundation

/// SpreadsheetML for rows and cells. Strings are inline (`t="inlineStr"`) rather than in a shared
/// string table, so nothing has to be held in memory across rows; instants are real date cells
/// (Excel serial days, UTC, shown as `yyyy-mm-dd hh:mm:ss` by style 1); numbers are number cells;
/// booleans are boolean cells. Empty cells are left out.
enum XLSXCellXML {
    /// Style indexes defined in `XLSXPackage.styles`.
    static let dateStyle = 1
    static let headerStyle = 2
    /// Excel refuses cells longer than this.
    static let maxTextLength = 32_767

    /// A row's XML appended to `xml` as UTF-8, without a `String` per cell: a million-answer
    /// workbook has tens of millions of cells.
    static func writeRow(_ number: Int, cells: [(column: Int, cell: ExportCell)], into xml: inout [UInt8]) {
        append("<row r=\"", to: &xml)
        ExportBytes.digits(number, width: 1, into: &xml)
        append("\">", to: &xml)
        for (column, cell) in cells {
            write(cell, column: column, row: number, into: &xml)
        }
        append("</row>", to: &xml)
    }

    static func headerRow(_ names: [String]) -> String {
        var xml = "<row r=\"1\">"
        for (column, name) in names.enumerated() {
            xml += "<c r=\"\(columnName(column))1\" s=\"\(headerStyle)\" t=\"inlineStr\"><is><t>\(escaped(name))</t></is></c>"
        }
        return xml + "</row>"
    }

    private static func write(_ cell: ExportCell, column: Int, row: Int, into xml: inout [UInt8]) {
        func start(_ rest: StaticString) {
            append("<c r=\"", to: &xml)
            if column < commonColumnLetters.count {
                xml.append(contentsOf: commonColumnLetters[column])
            } else {
                xml.append(contentsOf: makeColumnName(column).utf8)
            }
            ExportBytes.digits(row, width: 1, into: &xml)
            append(rest, to: &xml)
        }
        switch cell {
        case .empty:
            return
        case .text(let text):
            start("\" t=\"inlineStr\"><is><t xml:space=\"preserve\">")
            if needsEscaping(text) {
                xml.append(contentsOf: escaped(text).utf8)
            } else {
                xml.append(contentsOf: text.utf8)
            }
            append("</t></is></c>", to: &xml)
        case .number(let number):
            guard number.isFinite else { return }
            start("\"><v>")
            ExportBytes.number(number, into: &xml)
            append("</v></c>", to: &xml)
        case .date(let date), .localDate(let date):
            start("\" s=\"")
            ExportBytes.digits(dateStyle, width: 1, into: &xml)
            append("\"><v>", to: &xml)
            xml.append(contentsOf: serialDays(date).description.utf8)
            append("</v></c>", to: &xml)
        case .bool(let flag):
            start("\" t=\"b\"><v>")
            append(flag ? "1" : "0", to: &xml)
            append("</v></c>", to: &xml)
        }
    }

    private static func append(_ text: StaticString, to xml: inout [UInt8]) {
        xml.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Days since Excel's epoch (1899-12-30 in the 1900 date system), fractions for the time of day.
    static func serialDays(_ date: Date) -> Double {
        date.timeIntervalSince1970 / 86_400 + 25_569
    }

    /// `A`, `B`, … `Z`, `AA`, … for a column counted from 0.
    static func columnName(_ index: Int) -> String {
        if index < commonColumnNames.count { return commonColumnNames[index] }
        return makeColumnName(index)
    }

    private static let commonColumnNames = (0..<128).map(makeColumnName)
    private static let commonColumnLetters = commonColumnNames.map { Array($0.utf8) }

    private static func makeColumnName(_ index: Int) -> String {
        var number = index + 1
        var letters: [Character] = []
        while number > 0 {
            let remainder = (number - 1) % 26
            letters.insert(Character(UnicodeScalar(UInt8(65 + remainder))), at: 0)
            number = (number - 1) / 26
        }
        return String(letters)
    }

    /// Whether `escaped` would change the text.
    private static func needsEscaping(_ text: String) -> Bool {
        text.utf8.count > maxTextLength || text.utf8.contains { byte in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0xEF
        }
    }

    /// Text made safe for XML: markup characters escaped, characters XML 1.0 forbids (most control
    /// characters) dropped, and cut to Excel's cell limit.
    static func escaped(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var result = ""
        var kept = 0
        for scalar in text.unicodeScalars {
            guard kept < maxTextLength else { break }
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: result.unicodeScalars.append(scalar)
            }
            // Excel counts UTF-16 code units.
            kept += scalar.value > 0xFFFF ? 2 : 1
        }
        return result
    }
}
