import Foundation
import MomentaryCore

/// The study settings form, both as posted and as shown (times as "HH:MM", sounds comma-separated).
struct StudyForm: Codable {
    var slug: String
    var name: String
    var consentText: String
    /// Present ("on") when the checkbox is ticked.
    var invitationOnly: String?
    var scheduling: String
    /// "on" when participants are beeped at random moments within their hours (Mappiness); off,
    /// only the fixed times of the Schedule page beep.
    var randomSampling: String?
    var defaultTimeZone: String
    var minGapMinutes: Int
    var minBeepsPerDay: Int
    var maxBeepsPerDay: Int
    var defaultBeepsPerDay: Int
    var defaultStart: String
    var defaultEnd: String
    /// `participant`, `bounded` or `fixed`; for bounded, the bounds ("HH:MM") and shortest window.
    var hoursPolicy: String?
    var earliestStart: String?
    var latestEnd: String?
    var minimumWindowMinutes: String?
    var alertText: String
    var sounds: String
    /// `uniform` or `stratified`; burst days typed as "1-7, 91-97" (empty for every day).
    var sampling: String?
    var samplingDays: String?
    /// The answer window's settings as typed: minutes (the window empty for none), reminders "5, 10".
    var answerWindowMinutes: String?
    var completionMinutes: String?
    var remindersAfterMinutes: String?
    /// Empty to repeat the alert text.
    var reminderAlertText: String?
    /// The study's last day (`YYYY-MM-DD`) and days per participant; empty or absent for none.
    var endsOn: String?
    var endsAfterDays: String?
    /// What participants get back, each "on" when ticked; the slider the charts summarise.
    var feedbackEnabled: String?
    var dataDownloadEnabled: String?
    var publicStatisticsEnabled: String?
    /// "on" when participants may answer the researchers' messages.
    var messageRepliesAllowed: String?
    var feedbackQuestionID: String?
    /// The study's languages as typed, e.g. "en, de" (the first the default), and the study's own
    /// texts in the others (filled from the posted form's `translation_<tag>_<field>` inputs).
    var languages: String?
    var translations: [StudyTranslationFields]?

    init(_ study: Study) {
        slug = study.slug
        name = study.name
        consentText = study.consentText
        invitationOnly = study.invitationOnly ? "on" : nil
        scheduling = study.scheduling.rawValue
        randomSampling = study.randomSampling ? "on" : nil
        defaultTimeZone = study.defaultTimeZone
        minGapMinutes = study.minGapMinutes
        minBeepsPerDay = study.minBeepsPerDay
        maxBeepsPerDay = study.maxBeepsPerDay
        defaultBeepsPerDay = study.defaultBeepsPerDay
        defaultStart = Self.clock(study.defaultStartMinutes)
        defaultEnd = Self.clock(study.defaultEndMinutes)
        hoursPolicy = study.hoursPolicy
        earliestStart = study.earliestStartMinutes.map(Self.clock) ?? ""
        latestEnd = study.latestEndMinutes.map(Self.clock) ?? ""
        minimumWindowMinutes = study.minimumWindowMinutes.map(String.init) ?? ""
        alertText = study.alertText
        let names = (try? JSONDecoder().decode([String].self, from: Data(study.sounds.utf8))) ?? []
        sounds = names.joined(separator: ", ")
        sampling = study.samplingMethod.rawValue
        samplingDays = study.samplingDayRanges?.text ?? ""
        let window = study.answerWindow
        answerWindowMinutes = window.answerWindowMinutes.map(String.init) ?? ""
        completionMinutes = String(window.completionMinutes)
        remindersAfterMinutes = AnswerWindow.text(window.remindersAfterMinutes)
        reminderAlertText = study.reminderAlertText ?? ""
        endsOn = study.endsOn ?? ""
        endsAfterDays = study.endsAfterDays.map(String.init) ?? ""
        feedbackEnabled = study.feedbackEnabled ? "on" : nil
        dataDownloadEnabled = study.dataDownloadEnabled ? "on" : nil
        publicStatisticsEnabled = study.publicStatisticsEnabled ? "on" : nil
        messageRepliesAllowed = study.messageRepliesAllowed ? "on" : nil
        feedbackQuestionID = study.feedbackQuestionID ?? ""
        languages = study.languages.joined(separator: ", ")
        translations = StudyTranslationFields.of(study, languages: study.languages)
    }

    /// The study end as typed, with its problems (`StudyEnd`'s rule).
    var studyEnd: (end: StudyEnd, problems: [(field: String, message: String)]) {
        StudyEnd.parse(lastDate: endsOn ?? "", days: endsAfterDays ?? "")
    }

    /// The hours policy as typed, with a sentence for each field that does not read.
    var parsedHoursPolicy: (policy: HoursPolicy, earliestStart: TimeOfDay?, latestEnd: TimeOfDay?, minimumWindow: Int?, problems: [Problem]) {
        var problems: [Problem] = []
        let policyText = hoursPolicy ?? HoursPolicy.participant.rawValue
        let policy = HoursPolicy(rawValue: policyText) ?? .participant
        if HoursPolicy(rawValue: policyText) == nil {
            problems.append(Problem(field: "hoursPolicy", message: "Hours: choose who sets them, not “\(policyText.prefix(20))”."))
        }
        func time(_ text: String?, field: String, label: String) -> TimeOfDay? {
            let typed = (text ?? "").trimmingCharacters(in: .whitespaces)
            guard !typed.isEmpty else { return nil }
            guard let time = TimeOfDay(typed) else {
                problems.append(Problem(field: field, message: "\(label): “\(typed.prefix(20))” is not a time such as 07:00."))
                return nil
            }
            return time
        }
        let earliest = time(earliestStart, field: "earliestStart", label: "Earliest start")
        let latest = time(latestEnd, field: "latestEnd", label: "Latest end")
        let windowText = (minimumWindowMinutes ?? "").trimmingCharacters(in: .whitespaces)
        var window: Int?
        if !windowText.isEmpty {
            window = Int(windowText)
            if window == nil {
                problems.append(Problem(field: "minimumWindowMinutes", message: "Shortest hours: “\(windowText.prefix(20))” is not a whole number of minutes."))
            }
        }
        // Bounds typed under another policy are not the researcher's intent to keep: dropped, not refused.
        guard policy == .bounded else { return (policy, nil, nil, nil, problems) }
        return (policy, earliest, latest, window, problems)
    }

    /// The rules the form describes, for the presets `start` and `end`.
    func signallingRules(start: TimeOfDay, end: TimeOfDay) -> StudySignallingRules {
        let hours = parsedHoursPolicy
        return StudySignallingRules(
            minBeepsPerDay: minBeepsPerDay, maxBeepsPerDay: maxBeepsPerDay, defaultBeepsPerDay: defaultBeepsPerDay,
            minimumGapMinutes: minGapMinutes, defaultStart: start, defaultEnd: end, hoursPolicy: hours.policy,
            earliestStart: hours.earliestStart, latestEnd: hours.latestEnd, minimumWindowMinutes: hours.minimumWindow)
    }

    var samplingMethod: SamplingMethod? { SamplingMethod(rawValue: sampling ?? SamplingMethod.uniform.rawValue) }

    /// The burst days as typed, with a sentence when they do not read (`SamplingDays.parse`).
    var parsedSamplingDays: (days: SamplingDays?, problem: String?) { SamplingDays.parse(samplingDays ?? "") }

    /// The answer window as typed, with the fields that do not read as numbers.
    var parsedAnswerWindow: (window: AnswerWindow, problems: [Problem]) {
        var problems: [Problem] = []
        var window = AnswerWindow()
        func minutes(_ text: String?, field: String, label: String) -> Int? {
            let typed = (text ?? "").trimmingCharacters(in: .whitespaces)
            guard !typed.isEmpty else { return nil }
            guard let number = Int(typed) else {
                problems.append(Problem(field: field, message: "\(label): “\(typed.prefix(20))” is not a whole number of minutes."))
                return nil
            }
            return number
        }
        window.answerWindowMinutes = minutes(answerWindowMinutes, field: "answerWindowMinutes", label: "Answer window")
        window.completionMinutes = minutes(completionMinutes, field: "completionMinutes", label: "Time to finish")
            ?? AnswerWindow.defaultCompletionMinutes
        let reminders = AnswerWindow.parseReminders(remindersAfterMinutes ?? "")
        if let problem = reminders.problem { problems.append(Problem(field: "remindersAfterMinutes", message: problem)) }
        window.remindersAfterMinutes = reminders.minutes ?? []
        return (window, problems)
    }

    static func clock(_ minutes: Int) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    var soundNames: [String] {
        sounds.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// One reason the form cannot be saved: the form field it concerns (its input's id) and a sentence.
    struct Problem: Equatable {
        let field: String
        let message: String
    }

    /// Every reason the form cannot be saved. The signalling rules are MomentaryCore's, the same
    /// that `studies import` and registration apply; `feedbackSurvey` is the survey participants
    /// answer, whose sliders the feedback question must be one of.
    func problems(feedbackSurvey: SurveyDocument? = nil) -> [Problem] {
        var problems: [Problem] = []
        func add(_ field: String, _ message: String) { problems.append(Problem(field: field, message: message)) }
        if let problem = StudySlug.problem(slug) { add("slug", "Slug: \(problem).") }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { add("name", "Name: give the study a name.") }
        if consentText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { add("consentText", "Consent text: participants must be told what they agree to.") }
        if !["server", "device"].contains(scheduling) { add("scheduling", "Scheduling: choose server or device, not “\(scheduling)”.") }
        if TimeZone(identifier: defaultTimeZone) == nil { add("defaultTimeZone", "Default time zone: “\(defaultTimeZone)” is not a time zone name such as Europe/Berlin.") }
        let start = TimeOfDay(defaultStart.trimmingCharacters(in: .whitespaces))
        let end = TimeOfDay(defaultEnd.trimmingCharacters(in: .whitespaces))
        if start == nil { add("defaultStart", "Default start: “\(defaultStart)” is not a time such as 08:00.") }
        if end == nil { add("defaultEnd", "Default end: “\(defaultEnd)” is not a time such as 22:00.") }
        let hours = parsedHoursPolicy
        problems += hours.problems
        if let start, let end, hours.problems.isEmpty {
            for problem in signallingRules(start: start, end: end).problems() { add(Self.formField(problem.field), problem.message) }
        }
        for problem in studyEnd.problems { add(problem.field, problem.message) }
        if samplingMethod == nil { add("sampling", "Sampling: choose uniform or stratified, not “\((sampling ?? "").prefix(20))”.") }
        let days = parsedSamplingDays
        if let problem = days.problem { add("samplingDays", problem) }
        for problem in days.days?.problems(studyEnd: studyEnd.end) ?? [] {
            let prefix = "sampling_days: "
            add("samplingDays", "Sampling days: " + (problem.hasPrefix(prefix) ? String(problem.dropFirst(prefix.count)) : problem) + ".")
        }
        let window = parsedAnswerWindow
        problems += window.problems
        if window.problems.isEmpty {
            for problem in window.window.problems() { add(Self.formField(problem.field), problem.message) }
        }
        if alertText.trimmingCharacters(in: .whitespaces).isEmpty { add("alertText", "Alert text: the notification needs a text.") }
        // The same lengths `studies import` allows (TextLimits), in every language given.
        let limited: [(field: String, key: String, text: String, limit: Int, label: String)] = [
            ("name", StudyText.name.rawValue, name, TextLimits.studyName, "Name"),
            ("consentText", StudyText.consentText.rawValue, consentText, TextLimits.consentText, "Consent text"),
            ("alertText", StudyText.alertText.rawValue, alertText, TextLimits.alertText, "Alert text"),
            ("reminderAlertText", StudyText.reminderAlertText.rawValue, reminderAlertText ?? "", TextLimits.alertText, "Reminder text"),
        ]
        for item in limited {
            if let problem = TextLimits.problem(item.text, limit: item.limit, label: item.label) { add(item.field, problem + ".") }
            for translation in translations ?? [] {
                let text = translation.texts[item.key] ?? ""
                if let problem = TextLimits.problem(text, limit: item.limit, label: "\(item.label) in \(translation.name)") {
                    add("translation_\(translation.tag)_\(item.key)", problem + ".")
                }
            }
        }
        for problem in StudyLanguages.problems(languageList) {
            add("languages", "Languages: " + problem.replacingOccurrences(of: "languages: ", with: "") + ".")
        }
        if soundNames.isEmpty { add("sounds", "Sounds: list at least one sound name, for example default.") }
        if let problem = FeedbackSubject.problem(named: feedbackQuestionID, survey: feedbackSurvey, languages: languageList) {
            add("feedbackQuestionID", problem)
        }
        return problems
    }

    private static func formField(_ field: AnswerWindow.Field) -> String {
        switch field {
        case .answerWindow: "answerWindowMinutes"
        case .completion: "completionMinutes"
        case .reminders: "remindersAfterMinutes"
        }
    }

    private static func formField(_ field: StudySignallingRules.Field) -> String {
        switch field {
        case .beepsPerDay: "maxBeepsPerDay"
        case .defaultBeepsPerDay: "defaultBeepsPerDay"
        case .minimumGap: "minGapMinutes"
        case .defaultStart: "defaultStart"
        case .defaultEnd: "defaultEnd"
        case .hoursPolicy: "hoursPolicy"
        case .earliestStart: "earliestStart"
        case .latestEnd: "latestEnd"
        case .minimumWindow: "minimumWindowMinutes"
        }
    }

    /// Copies a valid form onto the study.
    func apply(to study: Study, now: Date) {
        study.setLanguages(languageList)
        study.setText(localizedText(name.trimmingCharacters(in: .whitespaces), of: .name), of: .name)
        study.setText(localizedText(consentText, of: .consentText), of: .consentText)
        study.invitationOnly = invitationOnly != nil
        study.scheduling = scheduling == "device" ? .device : .server
        study.randomSampling = randomSampling != nil
        study.defaultTimeZone = defaultTimeZone
        study.minGapMinutes = minGapMinutes
        study.minBeepsPerDay = minBeepsPerDay
        study.maxBeepsPerDay = maxBeepsPerDay
        study.defaultBeepsPerDay = defaultBeepsPerDay
        study.defaultStartMinutes = TimeOfDay(defaultStart.trimmingCharacters(in: .whitespaces))?.minutes ?? study.defaultStartMinutes
        study.defaultEndMinutes = TimeOfDay(defaultEnd.trimmingCharacters(in: .whitespaces))?.minutes ?? study.defaultEndMinutes
        if let start = TimeOfDay(defaultStart.trimmingCharacters(in: .whitespaces)),
           let end = TimeOfDay(defaultEnd.trimmingCharacters(in: .whitespaces)) {
            study.setHoursPolicy(of: signallingRules(start: start, end: end))
        }
        study.setText(localizedText(alertText, of: .alertText), of: .alertText)
        study.endsOn = studyEnd.end.lastDate?.description
        study.endsAfterDays = studyEnd.end.daysAfterRegistration
        study.feedbackEnabled = feedbackEnabled != nil
        study.dataDownloadEnabled = dataDownloadEnabled != nil
        study.publicStatisticsEnabled = publicStatisticsEnabled != nil
        study.messageRepliesAllowed = messageRepliesAllowed != nil
        let question = feedbackQuestionID?.trimmingCharacters(in: .whitespaces) ?? ""
        study.feedbackQuestionID = question.isEmpty ? nil : question
        study.sampling = (samplingMethod ?? .uniform).rawValue
        study.setSamplingDays(parsedSamplingDays.days)
        study.setAnswerWindow(parsedAnswerWindow.window)
        let reminderText = reminderAlertText?.trimmingCharacters(in: .whitespaces) ?? ""
        study.setText(reminderText.isEmpty ? nil : localizedText(reminderText, of: .reminderAlertText), of: .reminderAlertText)
        study.sounds = String(decoding: (try? JSONEncoder().encode(soundNames)) ?? Data("[]".utf8), as: UTF8.self)
        study.updatedAt = now
    }
}
