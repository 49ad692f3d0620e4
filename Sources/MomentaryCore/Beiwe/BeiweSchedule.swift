import Foundation

/// Beiwe's three schedules of a survey, as its backend stores them, turned into fixed rules:
///
/// - `timings`: seven lists, **Sunday first**, of seconds after local midnight → one weekly rule
///   per time, naming the days that have it;
/// - `absolute_timings`: `[year, month, day, seconds]` → an absolute rule;
/// - `relative_timings`: `[intervention, days, seconds]` → a rule relative to the participant date
///   of that name (`intervention` is a name today; older exports give an integer key, which the
///   Beiwe backend itself names `Intervention <key>` when it has no list of names).
///
/// Beiwe stores times to the minute; seconds within a minute are dropped with a warning. Anything
/// that is not a schedule Beiwe could have written is not converted, and the warning says why.
public struct BeiweSchedule: Sendable {
    public var rules: [FixedScheduleRule] = []
    /// One sentence each, naming the schedule and the entry.
    public var warnings: [String] = []
    /// The participant dates the rules count from, in the order first used.
    public var dateNames: [String] = []

    static let weekdaysFromSunday: [Weekday] = [.sun, .mon, .tue, .wed, .thu, .fri, .sat]

    /// Reads the schedules of one survey object; `names` maps older exports' integer keys to names.
    public init(survey: [String: JSONValue], interventionNames: [Int: String] = [:]) {
        if let timings = survey["timings"], timings != .null { readWeekly(timings) }
        if let absolute = survey["absolute_timings"], absolute != .null { readAbsolute(absolute) }
        if let relative = survey["relative_timings"], relative != .null { readRelative(relative, names: interventionNames) }
    }

    private mutating func time(_ value: JSONValue?, in place: String) -> TimeOfDay? {
        guard let seconds = value?.numberValue, seconds == seconds.rounded(), (0..<86_400).contains(seconds) else {
            warnings.append("\(place): \(value.map(SurveyMessages.describe) ?? "nothing") is not a time of day in seconds (0–86399); not converted.")
            return nil
        }
        if Int(seconds) % 60 != 0 {
            warnings.append("\(place): \(Int(seconds)) seconds is not on a whole minute; Beiwe keeps minutes, and so does the rule.")
        }
        return TimeOfDay(minutes: Int(seconds) / 60)
    }

    private mutating func readWeekly(_ timings: JSONValue) {
        guard let days = timings.arrayValue, days.count == 7, days.allSatisfy({ $0.arrayValue != nil }) else {
            warnings.append("“timings” is not seven lists of times (Sunday first); the weekly schedule was not converted.")
            return
        }
        var daysByTime: [TimeOfDay: [Weekday]] = [:]
        for (index, day) in days.enumerated() {
            let weekday = Self.weekdaysFromSunday[index]
            for value in day.arrayValue ?? [] {
                guard let time = time(value, in: "“timings” for \(SurveyTimings.weekdayNames[index])") else { continue }
                if !(daysByTime[time]?.contains(weekday) ?? false) { daysByTime[time, default: []].append(weekday) }
            }
        }
        for time in daysByTime.keys.sorted() {
            let order = Weekday.allCases
            let days = daysByTime[time, default: []].sorted { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! }
            rules.append(.weekly(.init(days: days, time: time)))
        }
    }

    private mutating func readAbsolute(_ timings: JSONValue) {
        guard let entries = timings.arrayValue else {
            warnings.append("“absolute_timings” is not a list; not converted.")
            return
        }
        for (index, entry) in entries.enumerated() {
            let place = "“absolute_timings” entry \(index + 1)"
            let parts = entry.arrayValue?.compactMap(\.numberValue) ?? []
            guard parts.count == 4, entry.arrayValue?.count == 4, parts[0...2].allSatisfy({ $0 == $0.rounded() }),
                  let date = LocalDate(year: Int(parts[0]), month: Int(parts[1]), day: Int(parts[2])) else {
                warnings.append("\(place): \(SurveyMessages.describe(entry)) is not [year, month, day, seconds]; not converted.")
                continue
            }
            guard let time = time(.number(parts[3]), in: place) else { continue }
            rules.append(.absolute(LocalDateTime(date: date, time: time)))
        }
    }

    private mutating func readRelative(_ timings: JSONValue, names: [Int: String]) {
        guard let entries = timings.arrayValue else {
            warnings.append("“relative_timings” is not a list; not converted.")
            return
        }
        for (index, entry) in entries.enumerated() {
            let place = "“relative_timings” entry \(index + 1)"
            guard let parts = entry.arrayValue, parts.count == 3,
                  let days = parts[1].numberValue, days == days.rounded(), abs(days) <= Double(ParticipantDates.maximumDayOffset) else {
                warnings.append("\(place): \(SurveyMessages.describe(entry)) is not [intervention, days, seconds]; not converted.")
                continue
            }
            let name: String
            if let text = parts[0].stringValue {
                name = text
            } else if let key = parts[0].numberValue, key == key.rounded() {
                name = names[Int(key)] ?? "Intervention \(Int(key))"
            } else {
                warnings.append("\(place): the intervention \(SurveyMessages.describe(parts[0])) is neither a name nor a key; not converted.")
                continue
            }
            if let problem = ParticipantDates.nameProblem(name) {
                warnings.append("\(place): \(problem); not converted.")
                continue
            }
            guard let time = time(parts[2], in: place) else { continue }
            rules.append(.relative(day: Int(days), time: time, to: name))
            if !dateNames.contains(name) { dateNames.append(name) }
        }
    }
}
