/// Reading a stream's CSV text by records and fields, where a quoted field may hold commas and
/// line breaks (the phone's format allows both; Beiwe's downloads never quote). Quotes are kept:
/// a record put back together from its fields is the record as it was.
public enum StreamCSV {
    /// The records of `text`, each without its line ending (`\n` or `\r\n`), and the line each starts on.
    public static func records(_ text: Substring) -> [(line: Int, text: Substring)] {
        var records: [(Int, Substring)] = []
        var start = text.startIndex
        var line = 1
        var startLine = 1
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { quoted.toggle() }
            // "\r\n" is one Character in Swift.
            if character == "\n" || character == "\r\n" {
                if !quoted {
                    records.append((startLine, text[start..<index]))
                    start = text.index(after: index)
                    startLine = line + 1
                }
                line += 1
            }
            index = text.index(after: index)
        }
        records.append((startLine, text[start..<text.endIndex]))
        return records
    }

    /// The ranges of a record's comma-separated fields; a quoted field keeps its quotes.
    static func fieldRanges(of record: Substring) -> [Range<Substring.Index>] {
        var ranges: [Range<Substring.Index>] = []
        var start = record.startIndex
        var quoted = false
        var index = record.startIndex
        while index < record.endIndex {
            let character = record[index]
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                ranges.append(start..<index)
                start = record.index(after: index)
            }
            index = record.index(after: index)
        }
        ranges.append(start..<record.endIndex)
        return ranges
    }

    /// A record's fields, as text.
    public static func fields(of record: Substring) -> [Substring] { fieldRanges(of: record).map { record[$0] } }
}
