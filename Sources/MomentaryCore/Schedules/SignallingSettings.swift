import Foundation

/// A participant's choice of how often and when to be beeped (Mappiness "settings").
/// `end` may be earlier than `start`: the hours then cross midnight (shift workers).
public struct SignallingSettings: Codable, Sendable, Hashable {
    /// Beeps a day, 1 to 24, within the range the study offers.
    public var beepsPerDay: Int
    /// Start of the signalling hours, local wall-clock time, a multiple of 15 minutes.
    public var start: TimeOfDay
    /// End of the signalling hours; beeps stop 10 minutes before it (delivery margin).
    public var end: TimeOfDay
    /// Name of the alert sound the participant chose; `nil` means the app's default.
    public var sound: String?

    public init(beepsPerDay: Int, start: TimeOfDay, end: TimeOfDay, sound: String? = nil) {
        self.beepsPerDay = beepsPerDay
        self.start = start
        self.end = end
        self.sound = sound
    }

    /// Mappiness defaults: twice a day between 08:00 and 22:00.
    public static let standard = SignallingSettings(
        beepsPerDay: 2, start: TimeOfDay(hour: 8, minute: 0)!, end: TimeOfDay(hour: 22, minute: 0)!)

    enum CodingKeys: String, CodingKey {
        case beepsPerDay = "beeps_per_day"
        case start, end, sound
    }
}
