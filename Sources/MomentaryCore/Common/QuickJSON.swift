import Foundation

/// A strict reading of a JSON document (RFC 8259) into a tree, for a body the server decodes at
/// every upload: `JSONDecoder` pays for its `Decoder` machinery at every value, which made it a
/// large share of the server's CPU per stored response (figures: BENCHMARKS.md,
/// `momentary-bench ingest`).
///
/// It reads only what it is sure `JSONDecoder` reads the same way. For anything else — JSON
/// that is not valid, a key given twice, a lone surrogate or `\u0000` escape, a number that is
/// long, not finite, subnormal, a zero `JSONDecoder` may refuse or not an exact `Int` where one
/// is wanted, nesting deeper than `maximumDepth` — it gives up (nil), and the caller decodes with
/// `JSONDecoder`, whose errors are the API's. So a quick reading never changes what a body
/// means, only how fast it is read (`QuickJSONTests` checks both against each other).
public enum QuickJSON {
    public indirect enum Node: Sendable {
        case null
        case bool(Bool)
        /// `integer` is set for an integer literal (no fraction or exponent) that fits an `Int`.
        case number(Double, integer: Int?)
        case string(String)
        case array([Node])
        case object(Object)
    }

    /// An object's members in document order; no key appears twice.
    public struct Object: Sendable {
        public let members: [(key: String, value: Node)]

        /// The member's value; nil when the key is absent (a JSON null is `.null`).
        public subscript(key: String) -> Node? {
            members.first { $0.key == key }?.value
        }
    }

    /// Deeper documents are left to `JSONDecoder` (whose own limit is far higher).
    static let maximumDepth = 32
    /// Objects with more members are left to `JSONDecoder`: duplicate keys are looked for pairwise.
    static let maximumMembers = 64
    /// Longer number literals are left to `JSONDecoder`, so both read only ordinary numbers.
    static let maximumNumberLength = 32

    /// The document's value, or nil when it is not one this reader is sure of (see above).
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Node? {
        var reader = Reader(bytes: bytes)
        guard let node = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        return reader.index == bytes.count ? node : nil
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        private mutating func consume(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func value(depth: Int) -> Node? {
            guard depth < QuickJSON.maximumDepth else { return nil }
            skipWhitespace()
            switch current {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(Node.string)
            case UInt8(ascii: "t"): return consume("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return consume("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return consume("null") ? .null : nil
            default: return number()
            }
        }

        private mutating func object(depth: Int) -> Node? {
            index += 1
            var members: [(key: String, value: Node)] = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return .object(Object(members: members))
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), let key = string(), members.count < QuickJSON.maximumMembers,
                      !members.contains(where: { $0.key == key })
                else { return nil }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let value = value(depth: depth + 1) else { return nil }
                members.append((key, value))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(Object(members: members))
                default: return nil
                }
            }
        }

        private mutating func array(depth: Int) -> Node? {
            index += 1
            var elements: [Node] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                default: return nil
                }
            }
        }

        /// A string from its opening quote: plain runs are taken as they are, escapes decoded.
        private mutating func string() -> String? {
            index += 1
            let start = index
            var ascii = true
            while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                guard byte >= 0x20 else { return nil }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            guard let end = current else { return nil }
            let run = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
            if end == UInt8(ascii: "\"") {
                index += 1
                return ascii ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
            }
            var decoded = Array(run)
            while let byte = current, byte != UInt8(ascii: "\"") {
                guard byte >= 0x20 else { return nil }
                index += 1
                guard byte == UInt8(ascii: "\\") else {
                    decoded.append(byte)
                    continue
                }
                guard let escaped = current else { return nil }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    decoded.append(contentsOf: UTF8.encode(scalar)!)
                default: return nil
                }
            }
            guard current == UInt8(ascii: "\"") else { return nil }
            index += 1
            return String(validating: decoded, as: UTF8.self)
        }

        /// The scalar of a `\uXXXX` escape (after its `\u`), a surrogate pair taken whole.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let unit = hexQuad(), unit != 0 else { return nil }
            guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit) }
            guard consume("\\u"), let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        }

        private mutating func hexQuad() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, finite.
        private mutating func number() -> Node? {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                guard skipDigits() else { return nil }
            }
            var isInteger = true
            if current == UInt8(ascii: ".") {
                index += 1
                isInteger = false
                guard skipDigits() else { return nil }
            }
            let mantissa = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
            var hasExponent = false
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                isInteger = false
                hasExponent = true
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() else { return nil }
            }
            guard index - start <= QuickJSON.maximumNumberLength else { return nil }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return nil }
            // JSONDecoder refuses a number that underflows to zero (1e-400) and some zeros with
            // an exponent (0e5, not 0e-1); subnormal numbers are not worth matching it on. All
            // are left to it.
            if value == 0 {
                guard !hasExponent, !mantissa.contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) else { return nil }
            } else if abs(value) < Double.leastNormalMagnitude {
                return nil
            }
            // "-0" is left without an integer: an Int has no negative zero to keep.
            let integer = isInteger && text != "-0" ? Int(text) : nil
            return .number(value, integer: integer)
        }

        /// One or more digits.
        private mutating func skipDigits() -> Bool {
            let start = index
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
            return index > start
        }
    }
}

extension QuickJSON.Node {
    public var isNull: Bool { if case .null = self { true } else { false } }
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var double: Double? { if case .number(let value, _) = self { value } else { nil } }
    public var integer: Int? { if case .number(_, let integer) = self { integer } else { nil } }
    public var array: [QuickJSON.Node]? { if case .array(let value) = self { value } else { nil } }
    public var object: QuickJSON.Object? { if case .object(let value) = self { value } else { nil } }
    public var uuid: UUID? { string.flatMap(UUID.init(uuidString:)) }
    /// A date as `WireCoding` reads one.
    public var date: Date? { string.flatMap(WireCoding.date(from:)) }

    /// The same value as `JSONValue`'s `Decodable` reading of it.
    public var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let value, _): .number(value)
        case .string(let value): .string(value)
        case .array(let elements): .array(elements.map(\.jsonValue))
        case .object(let object): .object(Dictionary(uniqueKeysWithValues: object.members.map { ($0.key, $0.value.jsonValue) }))
        }
    }
}

extension QuickJSON.Object {
    /// A member read as `decode(_:forKey:)` reads it: present and not null. Nil when it is not
    /// (where `JSONDecoder` would throw).
    public func required<T>(_ key: String, _ read: (QuickJSON.Node) -> T?) -> T? {
        guard let node = self[key], !node.isNull else { return nil }
        return read(node)
    }

    /// A member read as `decodeIfPresent(_:forKey:)` reads it: `.some(nil)` when absent or null,
    /// nil when present but not readable.
    public func optional<T>(_ key: String, _ read: (QuickJSON.Node) -> T?) -> T?? {
        guard let node = self[key], !node.isNull else { return .some(nil) }
        return read(node).map { .some($0) }
    }

    /// A member read as `decodeOmittable(_:forKey:)` reads it: `.some(nil)` when absent, nil
    /// when null or not readable.
    public func omittable<T>(_ key: String, _ read: (QuickJSON.Node) -> T?) -> T?? {
        guard let node = self[key] else { return .some(nil) }
        guard !node.isNull else { return nil }
        return read(node).map { .some($0) }
    }
}
