import Fluent
import Foundation
import MomentaryCore

final class Study: Model, @unchecked Sendable {
    static let schema = "studies"

    /// Who decides when to beep: the server pushes every beep, or the app schedules local notifications.
    enum Scheduling: String, Codable, Sendable {
        case server, device
    }

    @ID(key: .id) var id: UUID?
    @Field(key: "slug") var slug: String
    @Field(key: "name") var name: String
    @Field(key: "consent_text") var consentText: String
    @Field(key: "invitation_only") var invitationOnly: Bool
    @Field(key: "scheduling") var scheduling: Scheduling
    /// Whether participants are beeped at random moments within their hours (Mappiness).
    @Field(key: "random_sampling") var randomSampling: Bool
    @Field(key: "default_timezone") var defaultTimeZone: String
    /// The last day anyone is beeped (`YYYY-MM-DD`, in each participant's calendar), if any.
    @OptionalField(key: "ends_on") var endsOn: String?
    /// How many days, from the day of registration, each participant is beeped, if limited.
    @OptionalField(key: "ends_after_days") var endsAfterDays: Int?
    @Field(key: "min_gap_minutes") var minGapMinutes: Int
    @Field(key: "min_beeps_per_day") var minBeepsPerDay: Int
    @Field(key: "max_beeps_per_day") var maxBeepsPerDay: Int
    @Field(key: "default_beeps_per_day") var defaultBeepsPerDay: Int
    @Field(key: "default_start_minutes") var defaultStartMinutes: Int
    @Field(key: "default_end_minutes") var defaultEndMinutes: Int
    /// Who chooses the hours (`HoursPolicy`); for `bounded`, the bounds and the shortest window.
    @Field(key: "hours_policy") var hoursPolicy: String
    @OptionalField(key: "earliest_start_minutes") var earliestStartMinutes: Int?
    @OptionalField(key: "latest_end_minutes") var latestEndMinutes: Int?
    @OptionalField(key: "minimum_window_minutes") var minimumWindowMinutes: Int?
    /// `uniform` or `stratified` (`SamplingMethod`).
    @Field(key: "sampling") var sampling: String
    /// `SamplingDays` as JSON: the days since registration random beeps come on; nil for every day.
    @OptionalField(key: "sampling_days") var samplingDays: String?
    /// `AnswerWindow`'s settings; the reminders as a JSON list of minutes.
    @OptionalField(key: "answer_window_minutes") var answerWindowMinutes: Int?
    @Field(key: "completion_minutes") var completionMinutes: Int
    @Field(key: "reminders_after_minutes") var remindersAfterMinutes: String
    /// The reminders' notification text; nil repeats `alertText`.
    @OptionalField(key: "reminder_alert_text") var reminderAlertText: String?
    @Field(key: "alert_text") var alertText: String
    /// JSON array of the alert sound names participants may choose from.
    @Field(key: "sounds") var sounds: String
    /// Signaller safeguard: refuse to send when more beeps than this fall due at one moment.
    @Field(key: "max_due_at_once") var maxDueAtOnce: Int
    /// "My happiness" charts for participants (`GET /api/v1/feedback`).
    @Field(key: "feedback_enabled") var feedbackEnabled: Bool
    /// The slider the charts summarise; nil or empty for the survey's first slider.
    @OptionalField(key: "feedback_question_id") var feedbackQuestionID: String?
    /// Participants may turn on a secret link to download their own data.
    @Field(key: "data_download_enabled") var dataDownloadEnabled: Bool
    /// Anonymous statistics of the whole sample at `/studies/{slug}/public`.
    @Field(key: "public_statistics_enabled") var publicStatisticsEnabled: Bool
    /// JSON list of BCP 47 tags, the first the default (`StudyLanguages`).
    @Field(key: "languages") var languagesJSON: String
    /// JSON object field → tag → text: the study's own texts in its other languages (the default
    /// language's stay in their columns). Fields: `StudyText`.
    @Field(key: "translations") var translationsJSON: String
    /// The study's own zone (`default_timezone`), in which its pages show times and days.
    var zone: TimeZone { TimeZone(identifier: defaultTimeZone) ?? .gmt }
    /// When the study was archived (M045); nil while it runs.
    @OptionalField(key: "archived_at") var archivedAt: Date?
    /// The names of the dates kept per participant (`ParticipantDates`), a JSON list; nil: none.
    @OptionalField(key: "participant_date_names") var participantDateNamesJSON: String?
    /// The participant variables' definitions (`ParticipantVariableDefinition`, a JSON list; M062).
    @OptionalField(key: "participant_variables") var participantVariablesJSON: String?
    /// The passive streams the study expects (`ExpectedStreams`), a JSON list; nil: none named.
    @OptionalField(key: "expected_streams") var expectedStreamsJSON: String?
    /// Participants may answer researchers' messages from the app's inbox (M057).
    @Field(key: "message_replies_allowed") var messageRepliesAllowed: Bool
    /// `StudyArms` as JSON (M060); nil for a study without arms.
    @OptionalField(key: "arms") var armsJSON: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    /// A new study with the Mappiness defaults: open, server-scheduled, random sampling twice a day
    /// between 08:00 and 22:00 with at least an hour between beeps.
    init(slug: String, name: String, now: Date) {
        self.slug = slug
        self.name = name
        self.consentText = "Taking part is voluntary. You can leave the study at any time from the app."
        self.invitationOnly = false
        self.scheduling = .server
        self.randomSampling = true
        self.defaultTimeZone = "America/New_York"
        self.minGapMinutes = 60
        self.minBeepsPerDay = 1
        self.maxBeepsPerDay = 5
        self.defaultBeepsPerDay = 2
        self.defaultStartMinutes = 8 * 60
        self.defaultEndMinutes = 22 * 60
        self.hoursPolicy = HoursPolicy.participant.rawValue
        self.sampling = SamplingMethod.uniform.rawValue
        self.completionMinutes = AnswerWindow.defaultCompletionMinutes
        self.remindersAfterMinutes = "[]"
        self.alertText = "How do you feel? Please tell us as soon as you safely can."
        self.sounds = #"["default"]"#
        self.maxDueAtOnce = 1000
        self.feedbackEnabled = true
        self.dataDownloadEnabled = true
        self.publicStatisticsEnabled = false
        self.messageRepliesAllowed = false
        self.languagesJSON = #"["en"]"#
        self.translationsJSON = "{}"
        self.createdAt = now
        self.updatedAt = now
    }
}

extension Study {
    var samplingMethod: SamplingMethod { SamplingMethod(rawValue: sampling) ?? .uniform }

    /// What the study offers participants to choose, as MomentaryCore checks it: the one rule the
    /// website, import, registration and settings changes apply.
    var signallingRules: StudySignallingRules {
        StudySignallingRules(
            minBeepsPerDay: minBeepsPerDay, maxBeepsPerDay: maxBeepsPerDay, defaultBeepsPerDay: defaultBeepsPerDay,
            minimumGapMinutes: minGapMinutes,
            defaultStart: TimeOfDay(minutes: defaultStartMinutes) ?? SignallingSettings.standard.start,
            defaultEnd: TimeOfDay(minutes: defaultEndMinutes) ?? SignallingSettings.standard.end,
            hoursPolicy: HoursPolicy(rawValue: hoursPolicy) ?? .participant,
            earliestStart: earliestStartMinutes.flatMap(TimeOfDay.init(minutes:)),
            latestEnd: latestEndMinutes.flatMap(TimeOfDay.init(minutes:)),
            minimumWindowMinutes: minimumWindowMinutes)
    }

    /// Stores the hours policy of checked rules.
    func setHoursPolicy(of rules: StudySignallingRules) {
        hoursPolicy = rules.hoursPolicy.rawValue
        earliestStartMinutes = rules.earliestStart?.minutes
        latestEndMinutes = rules.latestEnd?.minutes
        minimumWindowMinutes = rules.minimumWindowMinutes
    }

    /// The burst days, if any; a value that no longer reads is treated as none (the website and
    /// import validate before saving).
    var samplingDayRanges: SamplingDays? {
        samplingDays.flatMap { try? JSONDecoder().decode(SamplingDays.self, from: Data($0.utf8)) }
    }

    var answerWindow: AnswerWindow {
        AnswerWindow(
            answerWindowMinutes: answerWindowMinutes, completionMinutes: completionMinutes,
            remindersAfterMinutes: (try? JSONDecoder().decode([Int].self, from: Data(remindersAfterMinutes.utf8))) ?? [])
    }

    /// Stores the answer window's settings (already checked).
    func setAnswerWindow(_ window: AnswerWindow) {
        answerWindowMinutes = window.answerWindowMinutes
        completionMinutes = window.completionMinutes
        remindersAfterMinutes = "[" + window.remindersAfterMinutes.map(String.init).joined(separator: ",") + "]"
    }

    func setSamplingDays(_ days: SamplingDays?) {
        samplingDays = days.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// When the study stops beeping its participants.
    var end: StudyEnd {
        StudyEnd(lastDate: endsOn.flatMap(LocalDate.init), daysAfterRegistration: endsAfterDays)
    }
}
