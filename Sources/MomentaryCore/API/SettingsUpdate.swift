import Foundation

/// Body of `PUT /api/v1/settings`: the signalling settings, flat as in registration, and
/// optionally a new IANA time zone (a participant who moves, or whose phone got it wrong at sign-up)
/// and the pollen type the participant is most sensitive to (their pollen risk follows it).
public struct SettingsUpdate: Codable, Sendable, Hashable {
    /// The hours may be left out where the study fixes them (`hours_policy`).
    public var settings: SignallingSettingsRequest
    public var timezone: String?
    public var pollenSensitivity: PollenType?
    /// One of the study's languages: every text the server sends the participant is then in it.
    public var language: String? = nil

    public init(settings: SignallingSettings, timezone: String? = nil, pollenSensitivity: PollenType? = nil) {
        self.init(requesting: SignallingSettingsRequest(settings), timezone: timezone, pollenSensitivity: pollenSensitivity)
    }

    public init(requesting settings: SignallingSettingsRequest, timezone: String? = nil, pollenSensitivity: PollenType? = nil) {
        self.settings = settings
        self.timezone = timezone
        self.pollenSensitivity = pollenSensitivity
    }

    enum CodingKeys: String, CodingKey {
        case timezone
        case pollenSensitivity = "pollen_sensitivity"
        case language
    }

    public init(from decoder: Decoder) throws {
        settings = try SignallingSettingsRequest(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        timezone = try container.decodeOmittable(String.self, forKey: .timezone)
        pollenSensitivity = try container.decodeOmittable(PollenType.self, forKey: .pollenSensitivity)
        language = try container.decodeOmittable(String.self, forKey: .language)
    }

    public func encode(to encoder: Encoder) throws {
        try settings.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(timezone, forKey: .timezone)
        try container.encodeIfPresent(pollenSensitivity, forKey: .pollenSensitivity)
        try container.encodeIfPresent(language, forKey: .language)
    }
}
