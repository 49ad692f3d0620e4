import Foundation

/// The JSON shape shared by the website, the API and the CLI:
/// `{"weekly": {"days": ["mon"], "time": "09:45"}, "between": {"start": "2017-05-05", "end": "2017-05-15"}}`,
/// `"between": {"startDay": 45, "endDay": 90}`, `{"absolute": "2017-05-26T21:15"}`,
/// `{"relative": {"day": 21, "time": "17:16"}}` (from registration) or
/// `{"relative": {"to": "Baseline", "day": -1, "time": "09:00"}}` (from a participant's date),
/// `{"every_days": 3, "time": "19:00", "from": "registration"}` (or `"from": "2027-01-04"`; may have `between`).
/// An every_days rule keeps its count at the top, so `"every_days": 3` reads as what it does; its time and
/// start sit beside it, where `between` already sits for weekly rules.
/// Decoding throws `FixedScheduleError`; `FixedScheduleDocument` adds the rule's position.
extension FixedScheduleRule: Codable {
    private static let kinds = ["weekly", "absolute", "relative", "every_days"]
    /// Fields that only an every_days rule has beside its kind.
    private static let everyDaysFields = ["time", "from"]

    public init(from decoder: Decoder) throws {
        let rule = try StrictJSONObject(decoder, example: #"{"weekly": {"days": ["mon"], "time": "09:45"}}"#)
        try rule.rejectUnknownKeys(allowed: Self.kinds + ["between"] + Self.everyDaysFields)
        let present = Self.kinds.filter(rule.has)
        guard present.count == 1 else {
            let kinds = Self.kinds.map { "“\($0)”" }.joined(separator: ", ")
            throw FixedScheduleError(
                present.isEmpty
                    ? "has none of \(kinds); give exactly one"
                    : "has \(present.map { "“\($0)”" }.joined(separator: " and ")); give exactly one kind per rule")
        }
        if !["weekly", "every_days"].contains(present[0]), rule.has("between") {
            throw FixedScheduleError("“between” only applies to weekly and every_days rules")
        }
        if present[0] != "every_days", let key = Self.everyDaysFields.first(where: rule.has) {
            throw FixedScheduleError("“\(key)” only applies to every_days rules")
        }
        switch present[0] {
        case "weekly": self = .weekly(try Self.weekly(in: rule))
        case "absolute": self = try Self.absolute(in: rule)
        case "relative": self = try Self.relative(in: rule)
        default: self = .everyDays(try Self.everyDays(in: rule))
        }
    }

    private static func weekly(in rule: StrictJSONObject) throws(FixedScheduleError) -> Weekly {
        let weekly = try rule.object("weekly", example: #"{"days": ["mon", "wed"], "time": "09:45"}"#)
        try weekly.rejectUnknownKeys(allowed: ["days", "time"])
        let names = try weekly.strings("days", example: #"["mon", "wed", "fri"]"#)
        guard !names.isEmpty else {
            throw FixedScheduleError("\(weekly.field("days")) is empty; list at least one day, e.g. [\"mon\"]")
        }
        var days = [Weekday]()
        for name in names {
            guard let day = Weekday(rawValue: name) else {
                throw FixedScheduleError(
                    "unknown day name “\(name)” in \(weekly.field("days")); use mon, tue, wed, thu, fri, sat or sun")
            }
            guard !days.contains(day) else {
                throw FixedScheduleError("\(weekly.field("days")) lists “\(name)” twice")
            }
            days.append(day)
        }
        let time = try Self.time(in: weekly)
        let between = rule.has("between") ? try Self.range(in: rule) : nil
        return Weekly(days: days, time: time, between: between)
    }

    private static func range(in rule: StrictJSONObject) throws(FixedScheduleError) -> Range {
        let between = try rule.object("between", example: #"{"start": "2017-05-05", "end": "2017-05-15"}"#)
        try between.rejectUnknownKeys(allowed: ["start", "end", "startDay", "endDay"])
        let byDate = between.has("start") || between.has("end")
        let byDay = between.has("startDay") || between.has("endDay")
        guard byDate != byDay else {
            throw FixedScheduleError(
                "“between” needs either “start” and “end” (dates) or “startDay” and “endDay” "
                    + "(days since registration)\(byDate ? ", not both" : "")")
        }
        if byDate {
            let start = try Self.date(between, "start")
            let end = try Self.date(between, "end")
            guard start <= end else {
                throw FixedScheduleError("“between” ends (\(end)) before it starts (\(start))")
            }
            return .dates(start: start, end: end)
        }
        let start = try between.int("startDay", example: "45")
        let end = try between.int("endDay", example: "90")
        for (key, value) in [("startDay", start), ("endDay", end)] where value < 0 {
            throw FixedScheduleError(
                "\(between.field(key)) is \(value); days count from registration (day 0) and cannot be negative")
        }
        guard start <= end else {
            throw FixedScheduleError("“between” ends (day \(end)) before it starts (day \(start))")
        }
        return .registrationDays(start: start, end: end)
    }

    private static func absolute(in rule: StrictJSONObject) throws(FixedScheduleError) -> FixedScheduleRule {
        let text = try rule.string("absolute", example: #""2017-05-26T21:15""#)
        guard let moment = LocalDateTime(text) else {
            throw FixedScheduleError(
                "“absolute” “\(text)” is not a local date and time in YYYY-MM-DDTHH:MM form, e.g. 2017-05-26T21:15")
        }
        return .absolute(moment)
    }

    private static func relative(in rule: StrictJSONObject) throws(FixedScheduleError) -> FixedScheduleRule {
        let relative = try rule.object("relative", example: #"{"day": 21, "time": "17:16"}"#)
        try relative.rejectUnknownKeys(allowed: ["day", "time", "to"])
        let day = try relative.int("day", example: "21")
        var name: String?
        if relative.has("to") {
            let text = try relative.string("to", example: #""Baseline""#)
            if let problem = ParticipantDates.nameProblem(text) {
                throw FixedScheduleError("\(relative.field("to")): \(problem)")
            }
            name = text
        }
        // Days before a named date make sense (the day before a surgery); before registration they do not.
        guard day >= 0 || name != nil else {
            throw FixedScheduleError(
                "\(relative.field("day")) is \(day); days count from registration (day 0) and cannot be negative")
        }
        guard abs(day) <= ParticipantDates.maximumDayOffset else {
            throw FixedScheduleError(
                "\(relative.field("day")) is \(day); give a number of days from -\(ParticipantDates.maximumDayOffset) to \(ParticipantDates.maximumDayOffset)")
        }
        return .relative(day: day, time: try Self.time(in: relative), to: name)
    }

    private static func everyDays(in rule: StrictJSONObject) throws(FixedScheduleError) -> EveryDays {
        let interval = try rule.int("every_days", example: "3")
        guard (1...EveryDays.maximumInterval).contains(interval) else {
            throw FixedScheduleError(
                "“every_days” is \(interval); give a number of days from 1 (daily) to \(EveryDays.maximumInterval)")
        }
        let time = try Self.time(in: rule)
        let text = try rule.string("from", example: #""registration" or "2027-01-04""#)
        let from: EveryDays.Start
        if text == "registration" {
            from = .registration
        } else if let date = LocalDate(text) {
            from = .date(date)
        } else {
            throw FixedScheduleError("“from” “\(text)” is neither “registration” nor a date in YYYY-MM-DD form")
        }
        let between = rule.has("between") ? try Self.range(in: rule) : nil
        // Only dates can be compared here; a cycle that starts after its range ends never beeps.
        if case .date(let start) = from, case .dates(_, let end)? = between, start > end {
            throw FixedScheduleError("“from” (\(start)) is after “between” ends (\(end)), so the rule never beeps")
        }
        return EveryDays(interval: interval, time: time, from: from, between: between)
    }

    private static func time(in object: StrictJSONObject) throws(FixedScheduleError) -> TimeOfDay {
        let text = try object.string("time", example: #""09:45""#)
        guard let time = TimeOfDay(text) else {
            throw FixedScheduleError("\(object.field("time")) “\(text)” is not a time in HH:MM form (00:00–23:59)")
        }
        return time
    }

    private static func date(_ object: StrictJSONObject, _ key: String) throws(FixedScheduleError) -> LocalDate {
        let text = try object.string(key, example: #""2017-05-05""#)
        guard let date = LocalDate(text) else {
            throw FixedScheduleError("\(object.field(key)) “\(text)” is not a date in YYYY-MM-DD form")
        }
        return date
    }

    public func encode(to encoder: Encoder) throws {
        typealias Key = StrictJSONObject.Key
        var rule = encoder.container(keyedBy: Key.self)
        switch self {
        case .weekly(let weekly):
            var body = rule.nestedContainer(keyedBy: Key.self, forKey: Key("weekly"))
            try body.encode(weekly.days, forKey: Key("days"))
            try body.encode(weekly.time, forKey: Key("time"))
            try Self.encode(weekly.between, in: &rule)
        case .absolute(let moment):
            try rule.encode(moment.description, forKey: Key("absolute"))
        case .relative(let day, let time, let name):
            var body = rule.nestedContainer(keyedBy: Key.self, forKey: Key("relative"))
            try body.encodeIfPresent(name, forKey: Key("to"))
            try body.encode(day, forKey: Key("day"))
            try body.encode(time, forKey: Key("time"))
        case .everyDays(let cycle):
            try rule.encode(cycle.interval, forKey: Key("every_days"))
            try rule.encode(cycle.time, forKey: Key("time"))
            switch cycle.from {
            case .registration: try rule.encode("registration", forKey: Key("from"))
            case .date(let date): try rule.encode(date, forKey: Key("from"))
            }
            try Self.encode(cycle.between, in: &rule)
        }
    }

    private static func encode(
        _ between: Range?, in rule: inout KeyedEncodingContainer<StrictJSONObject.Key>
    ) throws {
        typealias Key = StrictJSONObject.Key
        switch between {
        case nil:
            break
        case .dates(let start, let end):
            var range = rule.nestedContainer(keyedBy: Key.self, forKey: Key("between"))
            try range.encode(start, forKey: Key("start"))
            try range.encode(end, forKey: Key("end"))
        case .registrationDays(let start, let end):
            var range = rule.nestedContainer(keyedBy: Key.self, forKey: Key("between"))
            try range.encode(start, forKey: Key("startDay"))
            try range.encode(end, forKey: Key("endDay"))
        }
    }
}
