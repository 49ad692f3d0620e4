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

    static func row(_ number: Int, cells: [(column: Int, cell: ExportCell)]) -> String {
        var xml = "<row r=\"\(number)\">"
        for (column, cell) in cells {
            xml += self.cell(cell, reference: columnName(column) + String(number))
        }
        return xml + "</row>"
    }

    static func headerRow(_ names: [String]) -> String {
        var xml = "<row r=\"1\">"
        for (column, name) in names.enumerated() {
            xml += "<c r=\"\(columnName(column))1\" s=\"\(headerStyle)\" t=\"inlineStr\"><is><t>\(escaped(name))</t></is></c>"
        }
        return xml + "</row>"
    }

    static func cell(_ cell: ExportCell, reference: String) -> String {
        switch cell {
        case .empty:
            return ""
        case .text(let text):
            return "<c r=\"\(reference)\" t=\"inlineStr\"><is><t xml:space=\"preserve\">\(escaped(text))</t></is></c>"
        case .number(let number):
            guard number.isFinite else { return "" }
            return "<c r=\"\(reference)\"><v>\(ExportCell.numberText(number))</v></c>"
        case .date(let date), .localDate(let date):
            return "<c r=\"\(reference)\" s=\"\(dateStyle)\"><v>\(serialDays(date).description)</v></c>"
        case .bool(let flag):
            return "<c r=\"\(reference)\" t=\"b\"><v>\(flag ? 1 : 0)</v></c>"
        }
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

    /// Text made safe for XML: markup characters escaped, characters XML 1.0 forbids (most control
    /// characters) dropped, and cut to Excel's cell limit.
    static func escaped(_ text: String) -> String {
        let needsWork = text.utf8.contains { byte in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0xEF
        }
        guard needsWork || text.utf8.count > maxTextLength else { return text }
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
