import Foundation
import MomentaryCore
import Testing

@Suite("JSON text of answer values")
struct JSONValueTextTests {
    /// What answers were stored as before ingest wrote the text itself.
    private func encoderText(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("is byte for byte what JSONEncoder with sorted keys writes, for every kind of value")
    func matchesTheEncoder() throws {
        let numbers: [Double] = [0, -0.0, 5, 100, -2.5, 0.1, 4.35, 3.14159, 1e-7, 0.000001, 1e16, 1e20, 1e21, 1e300,
                                 123_456_789_012_345_678, -1e-300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude]
        let strings = ["", "plain", "a/b", "quote\" and \\ backslash", "line\nbreak\ttab\rreturn", "\u{8}\u{c}\u{1}\u{1f}\u{7f}",
                       "é 😀 \u{2028} 日本", "</script>"]
        var values: [JSONValue] = [.null, .bool(true), .bool(false), .array([]), .object([:])]
        values += numbers.map(JSONValue.number) + strings.map(JSONValue.string)
        values.append(.array(strings.map(JSONValue.string) + numbers.map(JSONValue.number) + [.null, .bool(true)]))
        values.append(.array([.array([.number(1)]), .object(["place": .string("home/work"), "latitude": .number(51.5), "longitude": .number(-0.1)])]))
        values.append(.object(["b": .array([.number(1), .number(2.5)]), "a": .string("x"), "B": .null, "10": .bool(false), "9": .number(9)]))
        for value in values {
            #expect(try value.sortedKeysJSONText() == encoderText(value), "\(value)")
        }
    }

    @Test("matches the encoder for random strings of any characters")
    func randomStrings() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x2100, using: &generator))
            }
            let value = JSONValue.string(String(String.UnicodeScalarView(scalars)))
            #expect(try value.sortedKeysJSONText() == encoderText(value))
        }
    }

    @Test("refuses numbers JSON cannot hold, as the encoder does")
    func nonFinite() {
        for number in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try JSONValue.number(number).sortedKeysJSONText() }
        }
    }

    @Test("decodes each JSON type as itself, whatever order the types are tried in")
    func decodingKeepsTypes() throws {
        let text = #"[null, true, false, 0, 1, -2.5, "1", "true", "", [], {}, [1, "a"], {"n": 1, "s": "x", "b": false}]"#
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(decoded == .array([
            .null, .bool(true), .bool(false), .number(0), .number(1), .number(-2.5), .string("1"), .string("true"), .string(""),
            .array([]), .object([:]), .array([.number(1), .string("a")]),
            .object(["n": .number(1), "s": .string("x"), "b": .bool(false)]),
        ]))
    }
}
