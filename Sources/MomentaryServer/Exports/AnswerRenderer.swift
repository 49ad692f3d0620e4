import Foundation
import MomentaryCore

/// Turns a stored answer (JSON text in its canonical shape, see `QuestionKind`) into one cell an
/// analyst can use directly:
/// - numbers (slider, number, numeric free text, sound level) stay numbers: `72`, `36.6`;
/// - yes/no answers are booleans (`true` / `false` in CSV, a boolean cell in a workbook, as in JSON);
/// - texts, single choices (the option's key), dates and times, file references: the text itself;
/// - lists (multiple choice, people, tokens): the items joined with `;` in stored order, e.g.
///   `partner;friends` (the JSON export keeps the exact list when an item itself contains `;`);
/// - a location: `latitude,longitude`, then `;place` when a place was named: `51.5,-0.12;Office`.
///
/// Most stored answers are numbers or simple strings, which are read without a JSON parser; the
/// rest are parsed once per distinct text (lists such as `["home"]` repeat a lot).
struct AnswerRenderer {
    private var parsed: [String: ExportCell] = [:]
    private static let cacheLimit = 4096

    mutating func cell(forJSON text: String?) -> ExportCell {
        guard let text, let first = text.utf8.first else { return .empty }
        switch first {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let number = Double(text) { return .number(number) }
        case UInt8(ascii: "t") where text == "true":
            return .bool(true)
        case UInt8(ascii: "f") where text == "false":
            return .bool(false)
        case UInt8(ascii: "n") where text == "null":
            return .empty
        case UInt8(ascii: "\"") where !text.utf8.contains(UInt8(ascii: "\\")) && text.utf8.count >= 2:
            return .text(String(text.dropFirst().dropLast()))
        default:
            break
        }
        if let cached = parsed[text] { return cached }
        let cell = Self.parse(text)
        if parsed.count >= Self.cacheLimit { parsed.removeAll(keepingCapacity: true) }
        parsed[text] = cell
        return cell
    }

    private static func parse(_ text: String) -> ExportCell {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            // Not JSON after all: show what is stored rather than lose it.
            return .text(text)
        }
        return cell(for: value, json: text)
    }

    private static func cell(for value: JSONValue, json: String) -> ExportCell {
        switch value {
        case .null: return .empty
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .string(let string): return .text(string)
        case .array(let items): return .text(items.map(itemText).joined(separator: ";"))
        case .object(let fields):
            if let latitude = fields["latitude"]?.numberValue, let longitude = fields["longitude"]?.numberValue {
                var text = ExportCell.numberText(latitude) + "," + ExportCell.numberText(longitude)
                if let place = fields["place"]?.stringValue, !place.isEmpty { text += ";" + place }
                return .text(text)
            }
            return .text(json)
        }
    }

    private static func itemText(_ item: JSONValue) -> String {
        switch item {
        case .string(let string): string
        case .number(let number): ExportCell.numberText(number)
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        case .array, .object: jsonText(item)
        }
    }

    static func jsonText(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
