import Foundation

/// A local wall-clock date and time to the minute, written `"YYYY-MM-DDTHH:MM"`.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var date: LocalDate
    public var time: TimeOfDay

    public init(date: LocalDate, time: TimeOfDay) {
        self.date = date
        self.time = time
    }

    /// Parses exactly `YYYY-MM-DDTHH:MM`.
    public init?(_ text: String) {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = LocalDate(String(parts[0])), let time = TimeOfDay(String(parts[1]))
        else { return nil }
        self.init(date: date, time: time)
    }

    public var description: String { "\(date)T\(time)" }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.time) < (rhs.date, rhs.time)
    }
}
