import Foundation

/// RFC 4180 CSV: fields separated by commas, records ended by CRLF, and a field quoted (with inner
/// quotes doubled) when it holds a comma, a quote, a line break, or leading or trailing spaces
/// that a reader might trim. UTF-8 without a byte-order mark.
///
/// A text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return, per OWASP's CSV injection advice) is written with a leading `'`, so a
/// participant's free text can never execute on a researcher's computer. Numbers stay numbers.
enum CSVText {
    static let recordEnd = "\r\n"

    static func record(_ cells: [ExportCell]) -> String {
        fields(cells) + recordEnd
    }

    static func record(_ fields: [String]) -> String {
        fields.map(escaped).joined(separator: ",") + recordEnd
    }

    /// Cells as comma-separated fields, without the record end.
    static func fields(_ cells: [ExportCell]) -> String {
        var line = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { line += "," }
            line += escaped(cell.plainText)
        }
        return line
    }

    static func escaped(_ field: String) -> String {
        let field = neutralized(field)
        guard needsQuotes(field) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The field with a `'` in front when a spreadsheet would take it for a formula.
    static func neutralized(_ field: String) -> String {
        guard let first = field.utf8.first, formulaStarts.contains(first), Double(field) == nil else { return field }
        return "'" + field
    }

    private static let formulaStarts: Set<UInt8> = [
        UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "\t"), UInt8(ascii: "\r"),
    ]

    private static func needsQuotes(_ field: String) -> Bool {
        let bytes = field.utf8
        guard let first = bytes.first, let last = bytes.last else { return false }
        if first == space || last == space { return true }
        for byte in bytes where byte == comma || byte == quote || byte == lineFeed || byte == carriageReturn {
            return true
        }
        return false
    }

    private static let space = UInt8(ascii: " ")
    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
}
