import Foundation
import MomentaryCore

/// What a study allows participants to choose: the beeps-per-day range, a minimum gap that fits
/// their hours, and a sound from the study's list.
enum SignallingPolicy {
    /// The settings the participant gets for `request` (a study with fixed hours fills them in),
    /// or the refusal. `prefix` is where the settings sit in the request body (`settings` in
    /// registration), so errors name the field at fault as a JSON path.
    static func validate(_ request: SignallingSettingsRequest, for study: Study, fieldPrefix prefix: String? = nil) throws -> SignallingSettings {
        let field = { (name: String) in prefix.map { "\($0).\(name)" } ?? name }
        let settings: SignallingSettings
        do {
            settings = try study.signallingRules.participantSettings(for: request)
        } catch {
            throw APIError.invalid(error.message, field: error.path(under: prefix))
        }
        if let sound = settings.sound {
            let allowed = sounds(of: study)
            guard allowed.contains(sound) else {
                throw APIError.invalid(
                    "The sound “\(sound)” is not offered by this study; choose one of \(allowed.joined(separator: ", ")).",
                    field: field("sound"))
            }
        }
        return settings
    }

    static func sounds(of study: Study) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(study.sounds.utf8))) ?? ["default"]
    }

    static func apply(_ settings: SignallingSettings, to participant: Participant) {
        participant.beepsPerDay = settings.beepsPerDay
        participant.signalStartMinutes = settings.start.minutes
        participant.signalEndMinutes = settings.end.minutes
        participant.sound = settings.sound
    }
}

extension Participant {
    /// The participant's signalling settings as the schedule engine sees them.
    var signallingSettings: SignallingSettings {
        SignallingSettings(
            beepsPerDay: beepsPerDay,
            start: TimeOfDay(minutes: signalStartMinutes) ?? SignallingSettings.standard.start,
            end: TimeOfDay(minutes: signalEndMinutes) ?? SignallingSettings.standard.end,
            sound: sound)
    }
}
