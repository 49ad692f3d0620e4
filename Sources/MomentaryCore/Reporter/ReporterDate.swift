import Foundation

/// A report's time as Reporter writes it: `"2014-03-02T10:18:38-0500"` (local time with its UTC
/// offset, whole seconds) in current versions, or a number of seconds since 2001-01-01 UTC (Apple's
/// reference date) in old ones. Either form is read; each is written back as it was read.
public struct ReporterDate: Codable, Sendable, Hashable {
    public var instant: Date
    /// The offset written with the time, in seconds east of UTC; nil for the old numeric form.
    public var utcOffsetSeconds: Int?

    /// A time in the current form, at the offset of `zone` at that instant, to the whole second.
    public init(_ instant: Date, in zone: TimeZone) {
        self.instant = Date(timeIntervalSince1970: instant.timeIntervalSince1970.rounded(.down))
        self.utcOffsetSeconds = zone.secondsFromGMT(for: instant)
    }

    /// A time in the old numeric form.
    public init(referenceSeconds: Double) {
        self.instant = Date(timeIntervalSinceReferenceDate: referenceSeconds)
        self.utcOffsetSeconds = nil
    }

    /// The offset's zone, or UTC for the old form (which recorded none).
    public var zone: TimeZone {
        utcOffsetSeconds.flatMap { TimeZone(secondsFromGMT: $0) } ?? TimeZone(identifier: "UTC")!
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            guard seconds.isFinite else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be a finite number of seconds.")
            }
            self.init(referenceSeconds: seconds)
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "must be a time such as 2014-03-02T10:18:38-0500, not “\(text)”.")
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if utcOffsetSeconds == nil {
            try container.encode(instant.timeIntervalSinceReferenceDate)
        } else {
            try container.encode(text)
        }
    }

    /// The current form's text: local wall-clock time at the offset, then the offset as ±HHMM.
    public var text: String {
        TimestampText.local(instant, offsetSeconds: utcOffsetSeconds ?? 0, offsetSeparator: "")
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS±HHMM` (a colon in the offset and a `Z` are accepted too).
    static func parse(_ text: String) -> ReporterDate? {
        let characters = Array(text)
        guard characters.count >= 20, characters[10] == "T", characters[13] == ":", characters[16] == ":",
              let date = LocalDate(String(characters[0..<10])),
              let hour = Int(String(characters[11..<13])), let minute = Int(String(characters[14..<16])),
              let second = Int(String(characters[17..<19])),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let offsetText = String(characters[19...])
        let offsetSeconds: Int
        if offsetText == "Z" {
            offsetSeconds = 0
        } else {
            let digits = offsetText.dropFirst().filter { $0 != ":" }
            guard let sign = offsetText.first, sign == "+" || sign == "-", digits.count == 4, digits.allSatisfy(\.isASCII),
                  let hours = Int(String(digits.prefix(2))), let minutes = Int(String(digits.suffix(2))), hours <= 18, minutes < 60
            else { return nil }
            offsetSeconds = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        let local = date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
        return ReporterDate(instant: Date(timeIntervalSince1970: TimeInterval(local - offsetSeconds)), utcOffsetSeconds: offsetSeconds)
    }

    init(instant: Date, utcOffsetSeconds: Int?) {
        self.instant = instant
        self.utcOffsetSeconds = utcOffsetSeconds
    }
}
