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

    public init(slug: String, name: String, consentText: String, invitationOnly: Bool, scheduling: SchedulingStyle,
                beepsPerDay: BeepsPerDay, defaultSettings: SignallingSettings, minimumGapMinutes: Int,
                sounds: [String], registrationSurvey: SurveyDelivery?) {
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
    }
}
