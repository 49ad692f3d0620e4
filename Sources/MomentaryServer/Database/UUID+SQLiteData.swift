import Foundation
import SQLiteNIO

/// UUIDs to and from SQLite as the text SQLiteKit already stores (`uuidString`: 36 characters,
/// upper case). Without this conformance SQLiteKit reaches that text through a nested `Encoder`
/// and `Decoder` made for each value, and a batch of answers binds about 25 ids a response.
/// Strings that are not UUIDs decode to nothing, which SQLiteKit reports as a type mismatch.
extension UUID: @retroactive SQLiteDataConvertible {
    public init?(sqliteData: SQLiteData) {
        guard case .text(let text) = sqliteData, let uuid = UUID(hexText: text) else { return nil }
        self = uuid
    }

    public var sqliteData: SQLiteData? {
        .text(upperHexText)
    }
}

extension UUID {
    /// `uuidString`, made directly: Foundation on Linux formats it with `snprintf` and parses it
    /// with `sscanf`, which showed in the response writer's time (and in exports', which read an
    /// id or two a row; figures: BENCHMARKS.md, `momentary-bench ingest`).
    var upperHexText: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = Self.hexDigits[Int(byte >> 4)]
                    text[at + 1] = Self.hexDigits[Int(byte & 0x0f)]
                    at += 2
                }
                return at
            }
        }
    }

    /// A UUID from text in `uuidString`'s layout, in either case; nil for anything else.
    init?(hexText text: String) {
        var text = text
        let parsed: uuid_t? = text.withUTF8 { utf8 in
            guard utf8.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let complete = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard utf8[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = Self.hexValue(utf8[at]), let low = Self.hexValue(utf8[at + 1]) else { return false }
                    out[index] = high << 4 | low
                    at += 2
                }
                return true
            }
            return complete ? bytes : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        let value = hexValues[Int(byte)]
        return value < 16 ? value : nil
    }

    /// Each byte's value as a hexadecimal digit, 0xFF for bytes that are not one.
    private static let hexValues: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xFF
        }
    }
}
