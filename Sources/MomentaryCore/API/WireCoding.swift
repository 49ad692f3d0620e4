import Foundation

/// The one JSON configuration of the participant API, shared by the server and the client so both
/// read and write the same dates and key order.
///
/// Dates are ISO 8601 with a time zone (`2026-03-29T08:14:00Z`); fractional seconds are accepted
/// on input and written (to the millisecond) only when the instant has them.
public enum WireCoding {
    public static let jsonContentType = "application/json; charset=utf-8"
    public static let jpegContentType = "image/jpeg"
    public static let csvContentType = "text/csv; charset=utf-8"

    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // Sorted keys make bodies byte-for-byte reproducible (tests, idempotent retries, logs).
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(string(from: date))
        }
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "“\(text)” is not an ISO 8601 date-time with a time zone, such as 2026-03-29T08:14:00Z.")
            }
            return date
        }
        return decoder
    }

    /// Formats an instant in UTC, with milliseconds only when it has a fractional second.
    public static func string(from date: Date) -> String {
        // Foundation's formatter truncates fractions (…040.123 may print as .122), so the
        // milliseconds are rounded and written here.
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (wholeSeconds, fraction) = WallClock.floorDivide(Int(milliseconds), 1000)
        let base = Date(timeIntervalSince1970: Double(wholeSeconds)).formatted(Date.ISO8601FormatStyle())
        guard fraction != 0 else { return base }
        let digits = String(fraction)
        return base.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)`; `nil` for anything else, including a
    /// date-time without a time zone (its instant would be ambiguous).
    public static func date(from text: String) -> Date? {
        guard hasISO8601Shape(text) else { return nil }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
            return date
        }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    /// Foundation's parser tolerates trailing text; the wire format does not.
    private static func hasISO8601Shape(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        guard chars.count >= 20, chars[10] == UInt8(ascii: "T") else { return false }
        if chars.last == UInt8(ascii: "Z") { return true }
        let signIndex = chars.count - 6
        guard signIndex >= 19, chars[signIndex] == UInt8(ascii: "+") || chars[signIndex] == UInt8(ascii: "-"),
              chars[chars.count - 3] == UInt8(ascii: ":")
        else { return false }
        return true
    }
}

extension KeyedDecodingContainer {
    /// A field the request may leave out but, when it is there, must not be null: the contract
    /// (`openapi.yaml`) gives it no null, and the server keeps to the contract both ways.
    func decodeOmittable<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(T.self, DecodingError.Context(
                codingPath: codingPath + [key], debugDescription: "“\(key.stringValue)” may be left out, but not null."))
        }
        return try decode(T.self, forKey: key)
    }
}
