import Foundation

/// Signalling settings as a participant sends them (registration's `settings`, the body of
/// `PUT /api/v1/settings`). Unlike `SignallingSettings`, the hours may be left out: a study whose
/// hours are fixed fills them in. `StudySignallingRules.participantSettings(for:)` turns a request
/// into the settings the participant gets, or refuses it.
public struct SignallingSettingsRequest: Codable, Sendable, Hashable {
    public var beepsPerDay: Int
    /// `nil` when left out: the study's hours when they are fixed, refused otherwise.
    public var start: TimeOfDay?
    public var end: TimeOfDay?
    /// Name of the alert sound; `nil` means the app's default.
    public var sound: String?

    public init(beepsPerDay: Int, start: TimeOfDay? = nil, end: TimeOfDay? = nil, sound: String? = nil) {
        self.beepsPerDay = beepsPerDay
        self.start = start
        self.end = end
        self.sound = sound
    }

    /// The request that asks for exactly these settings (what every client sent before hours policies).
    public init(_ settings: SignallingSettings) {
        self.init(beepsPerDay: settings.beepsPerDay, start: settings.start, end: settings.end, sound: settings.sound)
    }

    enum CodingKeys: String, CodingKey {
        case beepsPerDay = "beeps_per_day"
        case start, end, sound
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        beepsPerDay = try container.decode(Int.self, forKey: .beepsPerDay)
        // Left out means "the study's hours"; null would be a second way to say it, so it is refused.
        start = try container.decodeOmittable(TimeOfDay.self, forKey: .start)
        end = try container.decodeOmittable(TimeOfDay.self, forKey: .end)
        // As `SignallingSettings` has always read it: null and absent both mean the default sound.
        sound = try container.decodeIfPresent(String.self, forKey: .sound)
    }

    /// With both hours given, the same JSON as `SignallingSettings`; absent hours are left out.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(beepsPerDay, forKey: .beepsPerDay)
        try container.encodeIfPresent(start, forKey: .start)
        try container.encodeIfPresent(end, forKey: .end)
        try container.encodeIfPresent(sound, forKey: .sound)
    }
}
