import Foundation

/// Body of `PUT /api/v1/settings`: the signalling settings, flat as in registration, and
/// optionally a new IANA time zone (a participant who moves, or whose phone got it wrong at sign-up).
public struct SettingsUpdate: Codable, Sendable, Hashable {
    public var settings: SignallingSettings
    public var timezone: String?

    public init(settings: SignallingSettings, timezone: String? = nil) {
        self.settings = settings
        self.timezone = timezone
    }

    enum CodingKeys: String, CodingKey {
        case timezone
    }

    public init(from decoder: Decoder) throws {
        settings = try SignallingSettings(from: decoder)
        timezone = try decoder.container(keyedBy: CodingKeys.self).decodeOmittable(String.self, forKey: .timezone)
    }

    public func encode(to encoder: Encoder) throws {
        try settings.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(timezone, forKey: .timezone)
    }
}
