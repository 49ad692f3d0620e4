import Foundation

/// Resolves the IANA zone names that apps upload and studies configure.
public enum ParticipantTimeZone {
    /// Used when neither the participant's zone nor the study's default can be understood (Beiwe's rule).
    public static let fallbackIdentifier = "America/New_York"

    /// The participant's zone, else the study default, else `America/New_York`.
    /// Apps that cannot detect a zone upload things like `"null"` or `"none"`; those fall back too.
    public static func resolve(_ identifier: String?, studyDefault: String? = nil) -> TimeZone {
        if let zone = zone(named: identifier) { return zone }
        if let zone = zone(named: studyDefault) { return zone }
        return TimeZone(identifier: fallbackIdentifier)!
    }

    /// The zone with exactly this name, or `nil` if it is not a known zone.
    public static func zone(named identifier: String?) -> TimeZone? {
        guard let name = identifier?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return nil }
        return TimeZone(identifier: name)
    }
}
