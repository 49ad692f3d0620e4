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
    var alertText: String
    var sounds: String
    /// The study's last day (`YYYY-MM-DD`) and days per participant; empty or absent for none.
    var endsOn: String?
    var endsAfterDays: String?
    /// What participants get back, each "on" when ticked; the slider the charts summarise.
    var feedbackEnabled: String?
    var dataDownloadEnabled: String?
    var publicStatisticsEnabled: String?
    var feedbackQuestionID: String?

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
        alertText = study.alertText
        let names = (try? JSONDecoder().decode([String].self, from: Data(study.sounds.utf8))) ?? []
        sounds = names.joined(separator: ", ")
        endsOn = study.endsOn ?? ""
        endsAfterDays = study.endsAfterDays.map(String.init) ?? ""
        feedbackEnabled = study.feedbackEnabled ? "on" : nil
        dataDownloadEnabled = study.dataDownloadEnabled ? "on" : nil
        publicStatisticsEnabled = study.publicStatisticsEnabled ? "on" : nil
        feedbackQuestionID = study.feedbackQuestionID ?? ""
    }

    /// The study end as typed, with its problems (`StudyEnd`'s rule).
    var studyEnd: (end: StudyEnd, problems: [(field: String, message: String)]) {
        StudyEnd.parse(lastDate: endsOn ?? "", days: endsAfterDays ?? "")
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
        if let start, let end {
            let rules = StudySignallingRules(
                minBeepsPerDay: minBeepsPerDay, maxBeepsPerDay: maxBeepsPerDay, defaultBeepsPerDay: defaultBeepsPerDay,
                minimumGapMinutes: minGapMinutes, defaultStart: start, defaultEnd: end)
            for problem in rules.problems() { add(Self.formField(problem.field), problem.message) }
        }
        for problem in studyEnd.problems { add(problem.field, problem.message) }
        if alertText.trimmingCharacters(in: .whitespaces).isEmpty { add("alertText", "Alert text: the notification needs a text.") }
        if soundNames.isEmpty { add("sounds", "Sounds: list at least one sound name, for example default.") }
        if let problem = FeedbackCalculator.problem(feedbackQuestionID: feedbackQuestionID, survey: feedbackSurvey) {
            add("feedbackQuestionID", problem)
        }
        return problems
    }

    private static func formField(_ field: StudySignallingRules.Field) -> String {
        switch field {
        case .beepsPerDay: "maxBeepsPerDay"
        case .defaultBeepsPerDay: "defaultBeepsPerDay"
        case .minimumGap: "minGapMinutes"
        case .defaultStart: "defaultStart"
        case .defaultEnd: "defaultEnd"
        }
    }

    /// Copies a valid form onto the study.
    func apply(to study: Study, now: Date) {
        study.name = name.trimmingCharacters(in: .whitespaces)
        study.consentText = consentText
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
        study.alertText = alertText
        study.endsOn = studyEnd.end.lastDate?.description
        study.endsAfterDays = studyEnd.end.daysAfterRegistration
        study.feedbackEnabled = feedbackEnabled != nil
        study.dataDownloadEnabled = dataDownloadEnabled != nil
        study.publicStatisticsEnabled = publicStatisticsEnabled != nil
        let question = feedbackQuestionID?.trimmingCharacters(in: .whitespaces) ?? ""
        study.feedbackQuestionID = question.isEmpty ? nil : question
        study.sounds = String(decoding: (try? JSONEncoder().encode(soundNames)) ?? Data("[]".utf8), as: UTF8.self)
        study.updatedAt = now
    }
}
