import Foundation

/// What an app shows before registering (`GET /api/v1/studies/{slug}`, no authentication): the
/// study's name and consent text, whether it needs an invitation, the settings a participant may
/// choose, and the registration survey to answer.
public struct StudyInfo: Codable, Sendable, Hashable {
    /// The range of beeps a day a participant may choose, and the preset.
    public struct BeepsPerDay: Codable, Sendable, Hashable {
        public var min: Int
        public var max: Int
        public var `default`: Int

        public init(min: Int, max: Int, default value: Int) {
            self.min = min
            self.max = max
            self.default = value
        }
    }

    public var slug: String
    public var name: String
    public var consentText: String
    public var invitationOnly: Bool
    public var scheduling: SchedulingStyle
    public var beepsPerDay: BeepsPerDay
    /// Preset signalling hours (a participant may change them).
    public var defaultSettings: SignallingSettings
    /// Minimum minutes between beeps; settings whose hours cannot fit the beeps are refused.
    public var minimumGapMinutes: Int
    /// Alert sounds a participant may choose from.
    public var sounds: [String]
    /// The registration survey, or null when the study has none.
    public var registrationSurvey: SurveyDelivery?
    /// Whether participants can join now; false while the study lacks a survey or consent text
    /// (registration is then refused with `study_not_ready`).
    public var ready: Bool
    /// Who chooses the hours: with `fixed` the preset hours are everyone's and the app shows them
    /// without letting them change; with `bounded` the app offers hours within the bounds, at least
    /// `minimumWindowMinutes` long (`StudySignallingRules.participantSettings(for:)` is the rule).
    public var hoursPolicy: HoursPolicy = .participant
    public var earliestStart: TimeOfDay? = nil
    public var latestEnd: TimeOfDay? = nil
    public var minimumWindowMinutes: Int? = nil
    /// The study's languages (BCP 47 tags, the first the default), and the one this answer's
    /// texts are in: chosen from `?lang=` or `Accept-Language` by `LanguageTag.choose`.
    public var languages: [String] = StudyLanguages.default
    public var language: String = StudyLanguages.default[0]
    /// The study has ended and was archived by its researchers (`ready` is then false too).
    public var archived = false

    public init(slug: String, name: String, consentText: String, invitationOnly: Bool, scheduling: SchedulingStyle,
                beepsPerDay: BeepsPerDay, defaultSettings: SignallingSettings, minimumGapMinutes: Int,
                sounds: [String], registrationSurvey: SurveyDelivery?, ready: Bool = true) {
        self.slug = slug
        self.name = name
        self.consentText = consentText
        self.invitationOnly = invitationOnly
        self.scheduling = scheduling
        self.beepsPerDay = beepsPerDay
        self.defaultSettings = defaultSettings
        self.minimumGapMinutes = minimumGapMinutes
        self.sounds = sounds
        self.registrationSurvey = registrationSurvey
        self.ready = ready
    }

    enum CodingKeys: String, CodingKey {
        case slug, name
        case consentText = "consent_text"
        case invitationOnly = "invitation_only"
        case scheduling
        case beepsPerDay = "beeps_per_day"
        case defaultSettings = "default_settings"
        case minimumGapMinutes = "minimum_gap_minutes"
        case sounds
        case registrationSurvey = "registration_survey"
        case ready
        case hoursPolicy = "hours_policy"
        case earliestStart = "earliest_start"
        case latestEnd = "latest_end"
        case minimumWindowMinutes = "minimum_window_minutes"
        case languages, language, archived
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        slug = try container.decode(String.self, forKey: .slug)
        name = try container.decode(String.self, forKey: .name)
        consentText = try container.decode(String.self, forKey: .consentText)
        invitationOnly = try container.decode(Bool.self, forKey: .invitationOnly)
        scheduling = try container.decode(SchedulingStyle.self, forKey: .scheduling)
        beepsPerDay = try container.decode(BeepsPerDay.self, forKey: .beepsPerDay)
        defaultSettings = try container.decode(SignallingSettings.self, forKey: .defaultSettings)
        minimumGapMinutes = try container.decode(Int.self, forKey: .minimumGapMinutes)
        sounds = try container.decode([String].self, forKey: .sounds)
        registrationSurvey = try container.decodeIfPresent(SurveyDelivery.self, forKey: .registrationSurvey)
        // Servers before `ready` existed always took registrations.
        ready = try container.decodeIfPresent(Bool.self, forKey: .ready) ?? true
        // Servers before hours policies let every participant choose.
        hoursPolicy = try container.decodeIfPresent(HoursPolicy.self, forKey: .hoursPolicy) ?? .participant
        earliestStart = try container.decodeIfPresent(TimeOfDay.self, forKey: .earliestStart)
        latestEnd = try container.decodeIfPresent(TimeOfDay.self, forKey: .latestEnd)
        minimumWindowMinutes = try container.decodeIfPresent(Int.self, forKey: .minimumWindowMinutes)
        // Servers before multilingual studies spoke English only.
        languages = try container.decodeIfPresent([String].self, forKey: .languages) ?? StudyLanguages.default
        language = try container.decodeIfPresent(String.self, forKey: .language) ?? languages[0]
        archived = try container.decodeIfPresent(Bool.self, forKey: .archived) ?? false
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(slug, forKey: .slug)
        try container.encode(name, forKey: .name)
        try container.encode(consentText, forKey: .consentText)
        try container.encode(invitationOnly, forKey: .invitationOnly)
        try container.encode(scheduling, forKey: .scheduling)
        try container.encode(beepsPerDay, forKey: .beepsPerDay)
        try container.encode(defaultSettings, forKey: .defaultSettings)
        try container.encode(minimumGapMinutes, forKey: .minimumGapMinutes)
        try container.encode(sounds, forKey: .sounds)
        // Explicit null, so an app can tell "no registration survey" from an old server.
        try container.encode(registrationSurvey, forKey: .registrationSurvey)
        try container.encode(ready, forKey: .ready)
        try container.encode(archived, forKey: .archived)
        try container.encode(hoursPolicy, forKey: .hoursPolicy)
        try container.encode(earliestStart, forKey: .earliestStart)
        try container.encode(latestEnd, forKey: .latestEnd)
        try container.encode(minimumWindowMinutes, forKey: .minimumWindowMinutes)
        try container.encode(languages, forKey: .languages)
        try container.encode(language, forKey: .language)
    }
}
