import Foundation

/// `momentary schedule preview`: the beeps a schedule would give, as CSV
/// (`date,index,local,utc`). The CLI parses flags; everything else lives here.
public enum SchedulePreview {
    /// A random (Mappiness) schedule over a range of local days.
    public struct RandomPlan: Sendable, Hashable {
        public var settings: SignallingSettings
        public var minimumGapMinutes: Int
        public var timeZone: TimeZone
        public var from: LocalDate
        public var through: LocalDate
        /// The seed used; the CLI may show it so a random run can be repeated.
        public var seed: UInt64
        public var sampling: SamplingMethod
    }

    /// A fixed (Beiwe) schedule document for a participant registered on a given day.
    public struct FixedPlan: Sendable, Hashable {
        public var document: FixedScheduleDocument
        public var registeredOn: LocalDate
        public var timeZone: TimeZone
        public var from: LocalDate
        public var through: LocalDate
    }

    public enum Plan: Sendable, Hashable {
        case random(RandomPlan)
        case fixed(FixedPlan)
    }

    public static let csvHeader = "date,index,local,utc"

    /// Writes the header and one line per beep, in time order, without the line break, so
    /// that long previews stream instead of building one big string.
    public static func writeCSV(_ plan: Plan, line: (String) -> Void) {
        line(csvHeader)
        switch plan {
        case .random(let random):
            var generator = Xoshiro256StarStar(seed: random.seed)
            for offset in 0...random.from.days(until: random.through) {
                let date = random.from.adding(days: offset)
                let beeps = RandomSchedule.validatedBeeps(
                    on: date, settings: random.settings, minimumGapMinutes: random.minimumGapMinutes,
                    timeZone: random.timeZone, sampling: random.sampling, using: &generator)
                // Rows carry the signalling day, which for hours past midnight is the day before.
                writeDay(date, beeps, random.timeZone, line)
            }
        case .fixed(let fixed):
            let beeps = FixedSchedule.beeps(
                fixed.document, registeredOn: fixed.registeredOn, timeZone: fixed.timeZone,
                from: fixed.from, through: fixed.through)
            var start = beeps.startIndex
            while start < beeps.endIndex {
                let date = WallClock.localDate(of: beeps[start], in: fixed.timeZone)
                var end = start + 1
                while end < beeps.endIndex, WallClock.localDate(of: beeps[end], in: fixed.timeZone) == date { end += 1 }
                writeDay(date, beeps[start..<end], fixed.timeZone, line)
                start = end
            }
        }
    }

    /// The same, to a text stream, one line per row ending in `\n`.
    public static func writeCSV(_ plan: Plan, to output: inout some TextOutputStream) {
        writeCSV(plan) { output.write($0 + "\n") }
    }

    private static func writeDay(
        _ date: LocalDate, _ beeps: some Collection<Date>, _ zone: TimeZone, _ line: (String) -> Void
    ) {
        for (index, beep) in beeps.enumerated() {
            line("\(date),\(index + 1),\(TimestampText.local(beep, in: zone)),\(TimestampText.utc(beep))")
        }
    }
}
