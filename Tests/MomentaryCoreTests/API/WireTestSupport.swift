import Foundation
@testable import MomentaryCore

/// Decodes and encodes with the shared wire configuration, and exposes encoded JSON as a tree.
enum Wire {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try WireCoding.makeDecoder().decode(type, from: Data(json.utf8))
    }

    static func encodeObject<T: Encodable>(_ value: T) throws -> [String: JSONValue] {
        let data = try WireCoding.makeEncoder().encode(value)
        let tree = try JSONDecoder().decode(JSONValue.self, from: data)
        guard let object = tree.objectValue else { throw WireTestError.notAnObject }
        return object
    }

    static func date(_ text: String) -> Date {
        WireCoding.date(from: text)!
    }
}

enum WireTestError: Error {
    case notAnObject
}
