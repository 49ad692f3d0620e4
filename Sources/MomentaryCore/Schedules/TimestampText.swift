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

    /// `2025-03-08T14:02:11.209`: UTC to the millisecond with no zone, as Beiwe's data downloads
    /// write their `UTC time` column.
    public static func utcMilliseconds(_ milliseconds: Int64) -> String {
        let split = WallClock.floorDivide(Int(milliseconds), 1000)
        let fraction = String(split.remainder)
        return dateTime(localSeconds: split.quotient) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `2025-03-08 14_00_00+00_00`: a UTC second as Beiwe names the files of a data download
    /// (`str(datetime)` with `:` made `_`).
    public static func beiweFileTime(_ seconds: Int) -> String {
        dateTime(localSeconds: seconds).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: ":", with: "_") + "+00_00"
    }

    /// The UTC second a Beiwe file time names, or nil for any other text.
    public static func seconds(ofBeiweFileTime text: String) -> Int? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = LocalDate(String(parts[0])), parts[1].hasSuffix("+00_00") else { return nil }
        let clock = parts[1].dropLast(6).split(separator: "_", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second)
        else { return nil }
        return date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
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
