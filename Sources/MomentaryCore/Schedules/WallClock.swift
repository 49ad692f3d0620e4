import Foundation

/// Conversions between local wall-clock time in an IANA zone and UTC instants.
///
/// Daylight-saving rules (shared by random and fixed schedules):
/// - a wall-clock time that does not exist that day (spring forward) moves forward to the first
///   valid moment after the gap, e.g. 02:30 on a New York spring-forward day becomes 03:00;
/// - a wall-clock time that happens twice (fall back) takes its first occurrence.
///
/// Local dates use proleptic Gregorian arithmetic and the zone's UTC offsets directly, which is
/// what a Gregorian `Calendar` in that zone does, but lets us choose the DST policy above.
public enum WallClock {
    public static func instant(on date: LocalDate, at time: TimeOfDay, in zone: TimeZone) -> Date {
        Date(timeIntervalSince1970: Double(epochSeconds(on: date, minuteOfDay: time.minutes, in: zone)))
    }

    /// The local date an instant falls on in `zone`.
    public static func localDate(of instant: Date, in zone: TimeZone) -> LocalDate {
        LocalDate(daysSinceEpoch: floorDivide(localSeconds(of: wholeSeconds(instant), in: zone), 86_400).quotient)
    }

    /// Seconds since 1970-01-01T00:00 UTC of the given local wall-clock minute.
    static func epochSeconds(on date: LocalDate, minuteOfDay: Int, in zone: TimeZone) -> Int {
        instantSeconds(ofLocalSeconds: date.daysSinceEpoch * 86_400 + minuteOfDay * 60, in: zone)
    }

    /// `epochSeconds` of two wall-clock minutes a few days apart at most (a window's start and
    /// end), found together: one look at the zone's offsets serves both when they share one.
    static func epochSeconds(
        on first: LocalDate, minuteOfDay firstMinute: Int, and second: LocalDate, minuteOfDay secondMinute: Int, in zone: TimeZone
    ) -> (Int, Int) {
        let early = first.daysSinceEpoch * 86_400 + firstMinute * 60
        let late = second.daysSinceEpoch * 86_400 + secondMinute * 60
        if let span = ZoneOffsetSpans.shared.span(covering: min(early, late) - 2 * 86_400, max(early, late) + 2 * 86_400, in: zone) {
            return (early - span.offset, late - span.offset)
        }
        return (instantSeconds(ofLocalSeconds: early, in: zone), instantSeconds(ofLocalSeconds: late, in: zone))
    }

    /// Local wall-clock seconds (since local 1970-01-01T00:00) of an instant.
    static func localSeconds(of epochSeconds: Int, in zone: TimeZone) -> Int {
        epochSeconds + offset(at: epochSeconds, in: zone)
    }

    /// The earliest instant whose local wall-clock time is at or after `local`: the first
    /// occurrence of an ambiguous time, or the end of the gap for a time that does not exist.
    static func instantSeconds(ofLocalSeconds local: Int, in zone: TimeZone) -> Int {
        // Every offset read below is at an instant within two days of `local`: where one span
        // holds them all, they are all its offset and the answer is `local − offset`.
        let spans = ZoneOffsetSpans.shared
        let (first, last) = (local - 2 * 86_400, local + 2 * 86_400)
        let span = spans.span(covering: first, last, in: zone) ?? spans.learn(from: first, in: zone)
        if span.last >= last { return local - span.offset }
        // The offsets in force a day either side and at `local` cover every offset that can
        // apply (|offset| < 1 day); each one that maps back onto itself gives an occurrence.
        let early = offset(at: local - 86_400, in: zone)
        let middle = offset(at: local, in: zone)
        let late = offset(at: local + 86_400, in: zone)
        var earliest: Int?
        func consider(_ candidate: Int) {
            guard offset(at: local - candidate, in: zone) == candidate else { return }
            earliest = min(earliest ?? .max, local - candidate)
        }
        consider(early)
        if middle != early { consider(middle) }
        if late != early && late != middle { consider(late) }
        if let earliest { return earliest }
        // A gap: wall time jumps from below `local` to above it at the transition instant.
        var before = local - max(early, middle, late)  // wall time here is still below `local`
        var after = local - min(early, middle, late)  // wall time here is already at or past `local`
        while after - before > 1 {
            let probe = before + (after - before) / 2
            if localSeconds(of: probe, in: zone) >= local { after = probe } else { before = probe }
        }
        return after
    }

    static func offset(at epochSeconds: Int, in zone: TimeZone) -> Int {
        ZoneOffsetSpans.shared.offset(at: epochSeconds, in: zone)
    }

    static func wholeSeconds(_ instant: Date) -> Int {
        Int(instant.timeIntervalSince1970.rounded(.down))
    }

    /// Division rounding toward negative infinity, with a remainder in `0..<divisor`: the day of an
    /// instant before 1970 is the earlier day, not the later. `divisor` must be positive.
    public static func floorDivide(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = ((value % divisor) + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }
}
