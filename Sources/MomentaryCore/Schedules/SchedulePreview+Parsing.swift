import Foundation

extension SchedulePreview {
    /// Default settings of the random form: Mappiness defaults and a one-hour gap.
    public static let defaultPerDay = 2
    public static let defaultHours = "08:00-22:00"
    public static let defaultMinimumGapMinutes = 60
    /// Keeps a typing slip from producing centuries of output.
    public static let maximumDays = 36_600

    /// Checks the option values and turns them into a plan; the error is one clear line.
    /// `--spec` selects the fixed form (its file is read here); otherwise the random form.
    public static func plan(_ arguments: SchedulePreviewArguments) throws(SchedulePreviewError) -> Plan {
        guard let zoneName = arguments.timezone else {
            throw SchedulePreviewError("--timezone is required, e.g. --timezone Europe/London")
        }
        let zone = try parseTimeZone(zoneName)
        guard let fromText = arguments.from else {
            throw SchedulePreviewError("--from is required, e.g. --from 2026-03-25")
        }
        let from = try parseDate(fromText, option: "--from")
        let through = try lastDay(from: from, days: arguments.days, to: arguments.to)

        if let specPath = arguments.spec {
            let randomOnly = [("--per-day", arguments.perDay), ("--hours", arguments.hours),
                              ("--min-gap", arguments.minGap), ("--seed", arguments.seed),
                              ("--sampling", arguments.sampling)]
            if let (option, _) = randomOnly.first(where: { $0.1 != nil }) {
                throw SchedulePreviewError("\(option) applies to random schedules and cannot be combined with --spec")
            }
            guard let registeredText = arguments.registered else {
                throw SchedulePreviewError("--registered is required with --spec, e.g. --registered 2017-04-20")
            }
            let registered = try parseDate(registeredText, option: "--registered")
            let document = try readDocument(at: specPath)
            return .fixed(FixedPlan(
                document: document, registeredOn: registered, timeZone: zone, from: from, through: through))
        }

        if arguments.registered != nil {
            throw SchedulePreviewError("--registered applies only to fixed schedules given with --spec")
        }
        let perDay = try parseWholeNumber(arguments.perDay ?? String(defaultPerDay), option: "--per-day")
        let (start, end) = try parseHours(arguments.hours ?? defaultHours)
        let gap = try parseWholeNumber(arguments.minGap ?? String(defaultMinimumGapMinutes), option: "--min-gap")
        let settings = SignallingSettings(beepsPerDay: perDay, start: start, end: end)
        do {
            try settings.validate(minimumGapMinutes: gap)
        } catch {
            throw SchedulePreviewError(error.description)
        }
        let sampling = try arguments.sampling.map(parseSampling) ?? .uniform
        let seed = try arguments.seed.map(parseSeed) ?? UInt64.random(in: .min ... .max)
        return .random(RandomPlan(
            settings: settings, minimumGapMinutes: gap, timeZone: zone, from: from, through: through, seed: seed,
            sampling: sampling))
    }

    /// `--window` and `--reminders`, checked as a study's answer window and reminders are.
    public static func prompts(_ arguments: SchedulePreviewArguments) throws(SchedulePreviewError) -> Prompts {
        let window = try arguments.window.map { text throws(SchedulePreviewError) in try parseWholeNumber(text, option: "--window") }
        let parsed = AnswerWindow.parseReminders(arguments.reminders ?? "")
        guard let reminders = parsed.minutes else {
            throw SchedulePreviewError("--reminders must be minutes after the beep, such as 5,10, not “\(arguments.reminders ?? "")”")
        }
        if let problem = AnswerWindow(answerWindowMinutes: window, remindersAfterMinutes: reminders).problems().first {
            throw SchedulePreviewError("\(problem.field == .reminders ? "--reminders" : "--window"): \(problem.message)")
        }
        return Prompts(windowMinutes: window, reminderMinutes: reminders)
    }

    /// `"08:00-20:00"` → start and end; the end may be earlier than the start (past midnight).
    public static func parseHours(_ text: String) throws(SchedulePreviewError) -> (start: TimeOfDay, end: TimeOfDay) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = TimeOfDay(String(parts[0])), let end = TimeOfDay(String(parts[1])) else {
            throw SchedulePreviewError("--hours must be two times in HH:MM-HH:MM form, e.g. 08:00-20:00, not “\(text)”")
        }
        return (start, end)
    }

    public static func parseDate(_ text: String, option: String) throws(SchedulePreviewError) -> LocalDate {
        guard let date = LocalDate(text) else {
            throw SchedulePreviewError("\(option) must be a date in YYYY-MM-DD form, e.g. 2026-03-25, not “\(text)”")
        }
        return date
    }

    /// Unlike the server, the CLI does not fall back to a default zone: a typo should be noticed.
    public static func parseTimeZone(_ text: String) throws(SchedulePreviewError) -> TimeZone {
        guard let zone = ParticipantTimeZone.zone(named: text) else {
            throw SchedulePreviewError("--timezone “\(text)” is not a known IANA time zone, e.g. Europe/London")
        }
        return zone
    }

    public static func parseWholeNumber(_ text: String, option: String) throws(SchedulePreviewError) -> Int {
        guard let value = Int(text) else {
            throw SchedulePreviewError("\(option) must be a whole number, not “\(text)”")
        }
        return value
    }

    public static func parseSeed(_ text: String) throws(SchedulePreviewError) -> UInt64 {
        guard let seed = UInt64(text) else {
            throw SchedulePreviewError("--seed must be a whole number from 0 to \(UInt64.max), not “\(text)”")
        }
        return seed
    }

    public static func parseSampling(_ text: String) throws(SchedulePreviewError) -> SamplingMethod {
        guard let sampling = SamplingMethod(rawValue: text) else {
            let names = SamplingMethod.allCases.map(\.rawValue).joined(separator: " or ")
            throw SchedulePreviewError("--sampling must be \(names), not “\(text)”")
        }
        return sampling
    }

    /// Exactly one of `--days` (count from `from`) and `--to` (last day, inclusive).
    static func lastDay(from: LocalDate, days: String?, to: String?) throws(SchedulePreviewError) -> LocalDate {
        switch (days, to) {
        case (nil, nil):
            throw SchedulePreviewError("give either --days (a number of days) or --to (the last date)")
        case (.some, .some):
            throw SchedulePreviewError("give either --days or --to, not both")
        case (let days?, nil):
            let count = try parseWholeNumber(days, option: "--days")
            guard (1...maximumDays).contains(count) else {
                throw SchedulePreviewError("--days must be from 1 to \(maximumDays), not \(count)")
            }
            return from.adding(days: count - 1)
        case (nil, let to?):
            let last = try parseDate(to, option: "--to")
            guard last >= from else {
                throw SchedulePreviewError("--to (\(last)) is before --from (\(from))")
            }
            guard from.days(until: last) < maximumDays else {
                throw SchedulePreviewError("--from to --to spans more than \(maximumDays) days")
            }
            return last
        }
    }

    private static func readDocument(at path: String) throws(SchedulePreviewError) -> FixedScheduleDocument {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SchedulePreviewError("--spec: cannot read “\(path)”")
        }
        do {
            return try FixedScheduleDocument.parse(data)
        } catch {
            throw SchedulePreviewError("--spec “\(path)”: \(error.description)")
        }
    }
}
