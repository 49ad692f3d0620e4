import Foundation

/// RFC 4180 CSV: fields separated by commas, records ended by CRLF, and a field quoted (with inner
/// quotes doubled) when it holds a comma, a quote, a line break, or leading or trailing spaces
/// that a reader might trim. UTF-8 without a byte-order mark. `CSVWriter` writes by these rules.
///
/// A text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return, per OWASP's CSV injection advice) is written with a leading `'`, so a
/// participant's free text can never execute on a researcher's computer. Numbers stay numbers.
enum CSVText {
    /// The field with a `'` in front when a spreadsheet would take it for a formula.
    static func neutralized(_ field: String) -> String {
        needsNeutralizing(field) ? "'" + field : field
    }

    static func needsNeutralizing(_ field: String) -> Bool {
        guard let first = field.utf8.first, isFormulaStart(first) else { return false }
        return Double(field) == nil
    }

    private static func isFormulaStart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), UInt8(ascii: "\t"), carriageReturn: true
        default: false
        }
    }

    /// Whether a field (after any `'`) must be quoted, from its first and last bytes and its content.
    static func needsQuotes(first: UInt8, last: UInt8, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if first == space || last == space { return true }
        for byte in bytes where byte == comma || byte == quote || byte == lineFeed || byte == carriageReturn {
            return true
        }
        return false
    }

    static let space = UInt8(ascii: " ")
    static let comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
}
