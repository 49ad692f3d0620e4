import Foundation

/// Any JSON value: answers, survey settings and other documents whose shape depends on data.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each type tried in vain throws (and builds) a DecodingError, so the commonest answers,
        // numbers and then strings, are tried first; no JSON value decodes as two of these types.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a JSON value.")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    public var numberValue: Double? { if case .number(let v) = self { v } else { nil } }
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let v) = self { v } else { nil } }
    public var objectValue: [String: JSONValue]? { if case .object(let v) = self { v } else { nil } }
    public var isNull: Bool { self == .null }
}

extension JSONValue {
    /// The value as compact JSON, byte for byte what `JSONEncoder` with `.sortedKeys` writes (the
    /// form answers are stored in), without an encoder: ingest writes one for every answer while a
    /// whole batch waits for its commit. Objects, rare in answers, still go through the encoder,
    /// whose key order this need not copy.
    public func sortedKeysJSONText() throws -> String {
        var text = ""
        try write(to: &text)
        return text
    }

    private func write(to text: inout String) throws {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value):
            guard value.isFinite else {
                throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "JSON has no \(value)."))
            }
            let description = value.description
            text += description.hasSuffix(".0") ? description.dropLast(2) : Substring(description)
        case .string(let value): Self.writeString(value, to: &text)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                try item.write(to: &text)
            }
            text += "]"
        case .object:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            text += String(decoding: try encoder.encode(self), as: UTF8.self)
        }
    }

    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "/": text += "\\/"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{8}": text += "\\b"
            case "\u{c}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
