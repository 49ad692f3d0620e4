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
        self.alertText = "How do you feel? Please tell us as soon as you safely can."
        self.sounds = #"["default"]"#
        self.maxDueAtOnce = 1000
        self.feedbackEnabled = true
        self.dataDownloadEnabled = true
        self.publicStatisticsEnabled = false
        self.createdAt = now
        self.updatedAt = now
    }
}

extension Study {
    /// When the study stops beeping its participants.
    var end: StudyEnd {
        StudyEnd(lastDate: endsOn.flatMap(LocalDate.init), daysAfterRegistration: endsAfterDays)
    }
}
