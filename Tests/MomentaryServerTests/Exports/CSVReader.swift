import Foundation

/// A strict RFC 4180 reader for checking exports as a spreadsheet would read them: quoted fields
/// may hold commas, doubled quotes and line breaks; records end with CRLF.
enum CSVReader {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static func records(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var inQuotes = false
        var characters = Array(text.unicodeScalars)[...]
        while let scalar = characters.popFirst() {
            if inQuotes {
                if scalar == "\"" {
                    if characters.first == "\"" {
                        field.unicodeScalars.append("\"")
                        characters.removeFirst()
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                guard field.isEmpty else { throw Malformed(description: "a quote inside an unquoted field: \(field)") }
                inQuotes = true
            case ",":
                record.append(field)
                field = ""
            case "\r":
                guard characters.popFirst() == "\n" else { throw Malformed(description: "a CR without LF") }
                record.append(field)
                records.append(record)
                record = []
                field = ""
            case "\n":
                throw Malformed(description: "a bare LF ends a record")
            default:
                field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes { throw Malformed(description: "an unterminated quoted field") }
        if !field.isEmpty || !record.isEmpty { throw Malformed(description: "the last record lacks its CRLF") }
        return records
    }

    /// Records as dictionaries keyed by the header row.
    static func rows(_ text: String) throws -> (header: [String], rows: [[String: String]]) {
        let all = try records(text)
        guard let header = all.first else { throw Malformed(description: "no header row") }
        let rows = try all.dropFirst().map { record in
            guard record.count == header.count else {
                throw Malformed(description: "a record of \(record.count) fields under a header of \(header.count)")
            }
            return Dictionary(uniqueKeysWithValues: zip(header, record))
        }
        return (header, rows)
    }
}
