import Foundation
import MomentaryCore

/// A whole study protocol as one JSON document: settings, surveys (current versions) and fixed
/// schedule rules. `momentary studies export` writes it and `import` reads it, so a protocol moves
/// between servers (a pilot server and production, or between research groups).
struct StudyDocument: Codable, Sendable, Equatable {
    static let currentFormat = "momentary-study/1"

    struct BeepsPerDay: Codable, Sendable, Equatable {
        var min: Int
        var max: Int
        var `default`: Int
    }

    struct Hours: Codable, Sendable, Equatable {
        var start: TimeOfDay
        var end: TimeOfDay
    }

    struct SurveyEntry: Codable, Sendable, Equatable {
        var name: String
        var kind: Survey.Kind
        var position: Int
        var active: Bool
        var document: SurveyDocument
        /// Fixed schedule rules for this survey, if any.
        var schedule: FixedScheduleDocument?
    }

    var format: String
    var slug: String
    /// Texts a participant reads may be given by language (`LocalizedText`), in `languages`.
    var name: LocalizedText
    var consentText: LocalizedText
    var invitationOnly: Bool
    var scheduling: Study.Scheduling
    var randomSampling: Bool
    var defaultTimezone: String
    var minGapMinutes: Int
    var beepsPerDay: BeepsPerDay
    var defaultHours: Hours
    var alertText: LocalizedText
    var sounds: [String]
    var maxDueAtOnce: Int
    var surveys: [SurveyEntry]
    /// The study end (`StudyEnd`): a last day `YYYY-MM-DD` and/or days per participant; absent for none.
    var endsOn: String? = nil
    var endsAfterDays: Int? = nil
    /// What participants get back; absent means the defaults of a new study (charts and download
    /// on, public statistics off, the first slider).
    var feedbackEnabled: Bool? = nil
    var dataDownloadEnabled: Bool? = nil
    var publicStatisticsEnabled: Bool? = nil
    var feedbackQuestion: String? = nil
    /// Participants may answer the researchers' messages; absent: they may not.
    var messageRepliesAllowed: Bool? = nil
    /// Who chooses the hours; absent: each participant (`HoursPolicy.participant`).
    var hoursPolicy: HoursPolicy? = nil
    var earliestStart: TimeOfDay? = nil
    var latestEnd: TimeOfDay? = nil
    var minimumWindowMinutes: Int? = nil
    /// Random sampling's method and burst days; absent: uniform, every day.
    var sampling: SamplingMethod? = nil
    var samplingDays: SamplingDays? = nil
    /// `AnswerWindow`: absent window keeps each beep answerable until the next; absent completion
    /// is 30 minutes; absent reminders, none.
    var answerWindowMinutes: Int? = nil
    var completionMinutes: Int? = nil
    var remindersAfterMinutes: [Int]? = nil
    var reminderAlertText: LocalizedText? = nil
    /// BCP 47 tags, the first the default; absent: English only.
    var languages: [String]? = nil
    /// The names of the dates kept per participant (`ParticipantDates`), from which fixed rules
    /// may count days; absent: none.
    var interventions: [String]? = nil
    /// The passive streams the study expects from phones (`ExpectedStreams`); absent: none named.
    var expectedStreams: [String]? = nil
    /// The variables kept per participant (`ParticipantVariableDefinition`); absent: none.
    var participantVariables: [ParticipantVariableDefinition]? = nil
    /// Randomised arms (`StudyArms`): the arms, how participants are allocated, and whether they
    /// are told their arm; all absent for a study without arms.
    var arms: [StudyArm]? = nil
    var allocation: ArmAllocationRule? = nil
    var showArmToParticipants: Bool? = nil

    var studyLanguages: [String] { languages ?? StudyLanguages.default }

    var signallingRules: StudySignallingRules {
        StudySignallingRules(
            minBeepsPerDay: beepsPerDay.min, maxBeepsPerDay: beepsPerDay.max, defaultBeepsPerDay: beepsPerDay.default,
            minimumGapMinutes: minGapMinutes, defaultStart: defaultHours.start, defaultEnd: defaultHours.end,
            hoursPolicy: hoursPolicy ?? .participant, earliestStart: earliestStart, latestEnd: latestEnd,
            minimumWindowMinutes: minimumWindowMinutes)
    }

    var answerWindow: AnswerWindow {
        AnswerWindow(
            answerWindowMinutes: answerWindowMinutes, completionMinutes: completionMinutes ?? AnswerWindow.defaultCompletionMinutes,
            remindersAfterMinutes: remindersAfterMinutes ?? [])
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, slug, name
        case consentText = "consent_text"
        case invitationOnly = "invitation_only"
        case scheduling
        case randomSampling = "random_sampling"
        case defaultTimezone = "default_timezone"
        case minGapMinutes = "min_gap_minutes"
        case beepsPerDay = "beeps_per_day"
        case defaultHours = "default_hours"
        case alertText = "alert_text"
        case sounds
        case maxDueAtOnce = "max_due_at_once"
        case surveys
        case endsOn = "ends_on"
        case endsAfterDays = "ends_after_days"
        case feedbackEnabled = "feedback_enabled"
        case dataDownloadEnabled = "data_download_enabled"
        case publicStatisticsEnabled = "public_statistics_enabled"
        case feedbackQuestion = "feedback_question"
        case messageRepliesAllowed = "message_replies_allowed"
        case hoursPolicy = "hours_policy"
        case earliestStart = "earliest_start"
        case latestEnd = "latest_end"
        case minimumWindowMinutes = "minimum_window_minutes"
        case sampling
        case samplingDays = "sampling_days"
        case answerWindowMinutes = "answer_window_minutes"
        case completionMinutes = "completion_minutes"
        case remindersAfterMinutes = "reminders_after_minutes"
        case reminderAlertText = "reminder_alert_text"
        case languages
        case interventions
        case expectedStreams = "expected_streams"
        case participantVariables = "participant_variables"
        case arms, allocation
        case showArmToParticipants = "show_arm_to_participants"
    }

    /// The arms as one value, nil when the document defines none.
    var studyArms: StudyArms? {
        guard let arms, let allocation else { return nil }
        return StudyArms(arms: arms, allocation: allocation, showArmToParticipants: showArmToParticipants ?? false)
    }

    /// The arms' problems under the rule the Arms page applies, against the document's surveys.
    func armProblems() -> [String] {
        guard let studyArms else {
            if arms != nil { return ["arms need an allocation ({\"method\": \"simple\"} or {\"method\": \"blocked\", \"block_size\": N})"] }
            if allocation != nil { return ["allocation is given but arms are not; leave allocation out for a study without arms"] }
            if showArmToParticipants != nil { return ["show_arm_to_participants is given but arms are not"] }
            return []
        }
        let registration = surveys.filter { $0.kind == .registration && $0.active }.min { $0.position < $1.position }
        return studyArms.problems(
            surveys: surveys.map { .init(name: $0.name, isBeepSurvey: $0.kind == .esm && $0.active, hasFixedSchedule: $0.schedule != nil) },
            registrationQuestionIDs: registration?.document.content.map(\.id) ?? [], languages: studyLanguages)
    }

    /// Every problem that would make the study unusable, each in one sentence. Without
    /// `checkingSurveys`, the surveys' own documents are not checked (a Beiwe import has checked
    /// them itself and switched off those with problems).
    func problems(checkingSurveys: Bool = true) -> [String] {
        var problems: [String] = []
        if format != Self.currentFormat { problems.append("format is “\(format)”; this server reads \(Self.currentFormat)") }
        if let slugProblem = StudySlug.problem(slug) { problems.append(slugProblem) }
        if name.text.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("name must not be empty") }
        problems += StudyLanguages.problems(studyLanguages)
        // The same rule as the study's readiness check: every text in every language.
        let texts: [(String, LocalizedText?)] = [
            ("name", name), ("consent_text", consentText), ("alert_text", alertText), ("reminder_alert_text", reminderAlertText),
        ]
        let limits = ["name": TextLimits.studyName, "consent_text": TextLimits.consentText,
                      "alert_text": TextLimits.alertText, "reminder_alert_text": TextLimits.alertText]
        for (label, text) in texts {
            guard let text else { continue }
            problems += TextLimits.problems(text, limit: limits[label] ?? TextLimits.alertText, label: label)
            problems += text.malformedTags.map { "\(label): “\($0)” is not a language tag" }
            problems += StudyLanguages.problems(of: text, label: label, languages: studyLanguages)
        }
        if ParticipantTimeZone.zone(named: defaultTimezone) == nil {
            problems.append("default_timezone “\(defaultTimezone)” is not an IANA time zone")
        }
        // The same rules the website applies when a researcher saves settings.
        problems += signallingRules.problems().map { "\($0.field.rawValue): \($0.message)" }
        // The same rule as the settings page's study end.
        problems += StudyEnd.parse(lastDate: endsOn ?? "", days: endsAfterDays.map(String.init) ?? "").problems.map(\.message)
        // The same rule as the settings page's feedback question: a slider or score of the survey answered.
        let answered = surveys.filter { $0.kind == .esm && $0.active }.min { $0.position < $1.position }
        if let problem = FeedbackSubject.problem(named: feedbackQuestion, survey: answered?.document, languages: studyLanguages) {
            problems.append(problem)
        }
        // The same rules as the settings page's sampling and answer window.
        let end = StudyEnd(lastDate: endsOn.flatMap(LocalDate.init), daysAfterRegistration: endsAfterDays)
        problems += samplingDays?.problems(studyEnd: end) ?? []
        problems += answerWindow.problems().map { "\($0.field.rawValue): \($0.message)" }
        if let text = reminderAlertText, text.text.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("reminder_alert_text must not be empty; leave it out to repeat alert_text")
        }
        if maxDueAtOnce < 1 { problems.append("max_due_at_once must be at least 1") }
        if sounds.isEmpty { problems.append("sounds must list at least one sound") }
        let dateNames = interventions ?? []
        problems += ParticipantDates.problems(dateNames).map { "interventions: \($0)" }
        problems += ExpectedStreams.problems(expectedStreams ?? []).map { "expected_streams: \($0)" }
        for survey in surveys {
            if let schedule = survey.schedule {
                problems += ParticipantDates.scheduleProblems(schedule, names: dateNames).map { "survey “\(survey.name)”: \($0)" }
            }
            guard checkingSurveys else { continue }
            problems += scheduleFieldProblems(survey.document).map { "survey “\(survey.name)”: \($0)" }
            problems += (survey.document.problems() + survey.document.translationProblems(languages: studyLanguages))
                .map { "survey “\(survey.name)”: \($0.message)" }
        }
        // The same rules as the website's "Add a survey".
        problems += SurveySetRules.problems(surveys.map { ($0.name, $0.kind) })
        let members = surveys.map { SurveySetRules.Member(name: $0.name, kind: $0.kind, active: $0.active, document: $0.document) }
        problems += SurveySetRules.followUpProblems(members)
        problems += SurveySetRules.variableProblems(members, definitions: participantVariables ?? []).map { "participant_variables: \($0)" }
        problems += armProblems()
        return problems
    }

    /// Beiwe's schedule fields inside a survey document would be kept and never followed, so a
    /// study would lose every beep in silence: they are refused with where the times belong.
    func scheduleFieldProblems(_ document: SurveyDocument) -> [String] {
        var problems = ["absolute_timings", "relative_timings"].filter { document.extraFields[$0] != nil }.map {
            "“\($0)” is Beiwe's schedule, which is not followed inside a survey; give the times as the survey's “schedule” rules, "
                + "or import the Beiwe export whole with `momentary studies import --beiwe`"
        }
        if document.timings != nil && scheduling == .server {
            problems.append("“timings” are only followed in device-scheduled studies; in this server-scheduled study give them as "
                + "the survey's “schedule” rules (weekly), or import the Beiwe export whole with `momentary studies import --beiwe`")
        }
        return problems
    }
}

/// Study slugs appear in URLs and registration requests: short, lower case, digits and hyphens.
enum StudySlug {
    static func problem(_ slug: String) -> String? {
        let allowed = slug.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" }
        guard (2...40).contains(slug.count), allowed, !slug.hasPrefix("-"), !slug.hasSuffix("-") else {
            return "the slug “\(slug)” must be 2 to 40 lower-case letters, digits or hyphens, not starting or ending with a hyphen"
        }
        return nil
    }

    /// A slug made from a file name or title: lower case, other characters as hyphens.
    static func suggestion(from text: String) -> String {
        let mapped = text.lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) ? String($0) : "-" }.joined()
        let parts = mapped.split(separator: "-").joined(separator: "-")
        let trimmed = String(parts.prefix(40)).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return trimmed.count >= 2 ? trimmed : "beiwe-study"
    }
}
