import Foundation

/// A survey's fixed rules written back as Beiwe's three schedules (the reverse of `BeiweSchedule`):
///
/// - weekly rules without `between` → `timings`, seven lists, **Sunday first**, of seconds after
///   local midnight, each day's list sorted and without repeats;
/// - absolute rules → `absolute_timings`, `[year, month, day, seconds]`;
/// - rules relative to a participant date → `relative_timings`, `[name, days, seconds]`.
///
/// Beiwe has no date range on a weekly schedule, no day counted from registration and no
/// repeating every N days: those rules are left out, each named in `leftOut` with why.
public struct BeiweScheduleExport: Sendable {
    /// Index 0 is Sunday.
    public private(set) var timings: [[Int]]
    public private(set) var absoluteTimings: [[Int]] = []
    public private(set) var relativeTimings: [(dateName: String, days: Int, seconds: Int)] = []
    /// One sentence per rule Beiwe cannot express: `rule 2 {…}: why; left out.`
    public private(set) var leftOut: [String] = []

    /// `existing` is a survey document's own `timings` (device-scheduled studies), kept beside the rules.
    public init(rules: [FixedScheduleRule], existing: SurveyTimings? = nil) {
        let given = existing?.secondsByWeekday ?? []
        timings = given.count == 7 ? given : Array(repeating: [], count: 7)
        for (index, rule) in rules.enumerated() {
            if let reason = add(rule) { leftOut.append("rule \(index + 1) \(Self.text(of: rule)): \(reason); left out.") }
        }
        timings = timings.map { Array(Set($0)).sorted() }
    }

    /// Adds a rule Beiwe can express; otherwise returns why it cannot.
    private mutating func add(_ rule: FixedScheduleRule) -> String? {
        switch rule {
        case .weekly(let weekly):
            guard weekly.between == nil else { return "Beiwe's weekly schedule has no date range" }
            for day in weekly.days {
                guard let index = BeiweSchedule.weekdaysFromSunday.firstIndex(of: day) else { continue }
                timings[index].append(Self.seconds(weekly.time))
            }
        case .absolute(let moment):
            absoluteTimings.append([moment.date.year, moment.date.month, moment.date.day, Self.seconds(moment.time)])
        case .relative(let day, let time, let name):
            guard let name else { return "Beiwe counts days only from interventions (participant dates), not from registration" }
            relativeTimings.append((name, day, Self.seconds(time)))
        case .everyDays:
            return "Beiwe has no schedule that repeats every few days"
        }
        return nil
    }

    /// The three fields of a Beiwe survey object.
    public var fields: [String: JSONValue] {
        func numbers(_ list: [Int]) -> JSONValue { .array(list.map { .number(Double($0)) }) }
        return [
            "timings": .array(timings.map(numbers)),
            "absolute_timings": .array(absoluteTimings.map(numbers)),
            "relative_timings": .array(relativeTimings.map {
                .array([.string($0.dateName), .number(Double($0.days)), .number(Double($0.seconds))])
            }),
        ]
    }

    private static func seconds(_ time: TimeOfDay) -> Int { time.minutes * 60 }

    /// The rule as the schedule editor writes it, so the researcher can find it.
    static func text(of rule: FixedScheduleRule) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(rule)).map { String(decoding: $0, as: UTF8.self) } ?? "\(rule)"
    }
}
