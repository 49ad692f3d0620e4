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

    /// What happens after each beep: its deadline (`windowMinutes`) and reminders, when asked for.
    public struct Prompts: Sendable, Hashable {
        public var windowMinutes: Int?
        public var reminderMinutes: [Int]

        public init(windowMinutes: Int? = nil, reminderMinutes: [Int] = []) {
            self.windowMinutes = windowMinutes
            self.reminderMinutes = reminderMinutes
        }

        var header: String {
            (windowMinutes == nil ? "" : ",expires_local,expires_utc") + (reminderMinutes.isEmpty ? "" : ",reminders_local")
        }

        /// The extra cells of a beep at `beep`; reminders stop at the deadline and at `hoursEnd`.
        func cells(_ beep: Date, hoursEnd: Date?, zone: TimeZone) -> String {
            let deadline = windowMinutes.map { beep.addingTimeInterval(Double($0) * 60) }
            var cells = deadline.map { ",\(TimestampText.local($0, in: zone)),\(TimestampText.utc($0))" } ?? ""
            if !reminderMinutes.isEmpty {
                let times = reminderMinutes.map { beep.addingTimeInterval(Double($0) * 60) }
                    .filter { time in (deadline.map { time < $0 } ?? true) && (hoursEnd.map { time < $0 } ?? true) }
                cells += "," + times.map { TimestampText.local($0, in: zone) }.joined(separator: ";")
            }
            return cells
        }
    }

    public static let csvHeader = "date,index,local,utc"

    /// Writes the header and one line per beep, in time order, without the line break, so
    /// that long previews stream instead of building one big string.
    public static func writeCSV(_ plan: Plan, prompts: Prompts = Prompts(), line: (String) -> Void) {
        line(csvHeader + prompts.header)
        switch plan {
        case .random(let random):
            var generator = Xoshiro256StarStar(seed: random.seed)
            for offset in 0...random.from.days(until: random.through) {
                let date = random.from.adding(days: offset)
                let beeps = RandomSchedule.validatedBeeps(
                    on: date, settings: random.settings, minimumGapMinutes: random.minimumGapMinutes,
                    timeZone: random.timeZone, sampling: random.sampling, using: &generator)
                // Rows carry the signalling day, which for hours past midnight is the day before.
                let hoursEnd = SignallingWindow(localDate: date, settings: random.settings, timeZone: random.timeZone).hoursEnd
                writeDay(date, beeps, random.timeZone, prompts: prompts, hoursEnd: hoursEnd, line)
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
                writeDay(date, beeps[start..<end], fixed.timeZone, prompts: prompts, hoursEnd: nil, line)
                start = end
            }
        }
    }

    /// The same, to a text stream, one line per row ending in `\n`.
    public static func writeCSV(_ plan: Plan, prompts: Prompts = Prompts(), to output: inout some TextOutputStream) {
        writeCSV(plan, prompts: prompts) { output.write($0 + "\n") }
    }

    private static func writeDay(
        _ date: LocalDate, _ beeps: some Collection<Date>, _ zone: TimeZone, prompts: Prompts, hoursEnd: Date?,
        _ line: (String) -> Void
    ) {
        for (index, beep) in beeps.enumerated() {
            line("\(date),\(index + 1),\(TimestampText.local(beep, in: zone)),\(TimestampText.utc(beep))"
                + prompts.cells(beep, hoursEnd: hoursEnd, zone: zone))
        }
    }
}
