import Foundation

/// ISO 8601 text for instants, written by hand so output is identical on every platform:
/// `2026-03-29T09:14:00+01:00` in a zone, `2026-03-29T08:14:00Z` in UTC (whole seconds).
public enum TimestampText {
    public static func local(_ instant: Date, in zone: TimeZone) -> String {
        let seconds = WallClock.wholeSeconds(instant)
        return local(instant, offsetSeconds: WallClock.offset(at: seconds, in: zone))
    }

    /// The wall-clock time at a fixed UTC offset; `offsetSeparator` "" writes `-0500` (Reporter's form).
    public static func local(_ instant: Date, offsetSeconds offset: Int, offsetSeparator: String = ":") -> String {
        dateTime(localSeconds: WallClock.wholeSeconds(instant) + offset) + offsetText(offset, separator: offsetSeparator)
    }

    public static func utc(_ instant: Date) -> String {
        dateTime(localSeconds: WallClock.wholeSeconds(instant)) + "Z"
    }

    private static func dateTime(localSeconds: Int) -> String {
        let date = LocalDate(daysSinceEpoch: WallClock.floorDivide(localSeconds, 86_400).quotient)
        let secondOfDay = localSeconds - date.daysSinceEpoch * 86_400
        let two = LocalDate.twoDigits
        return "\(date)T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
    }

    /// `+01:00`, `-05:00`, `+10:30`, `+00:00`; offsets are whole minutes in modern zone data.
    private static func offsetText(_ offset: Int, separator: String) -> String {
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + LocalDate.twoDigits(minutes / 60) + separator + LocalDate.twoDigits(minutes % 60)
    }
}
