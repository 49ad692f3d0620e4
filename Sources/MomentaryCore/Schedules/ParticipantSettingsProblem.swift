import Foundation

/// Why a participant's requested settings are refused by their study
/// (`StudySignallingRules.participantSettings(for:)`).
public struct ParticipantSettingsProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable name for the refusal. The web app keys its own (translated) words on it, and the
    /// shared cases (Tests/Shared/hours-policy-cases.json) compare it in Swift and JavaScript.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// Beeps a day outside the study's range.
        case beepsOutOfRange = "beeps_out_of_range"
        /// A start or end left out where participants choose their hours.
        case hoursRequired = "hours_required"
        /// A start or end other than the study's, where the hours are fixed.
        case hoursFixed = "hours_fixed"
        case notOnQuarterHour = "not_on_quarter_hour"
        case sameStartAndEnd = "same_start_and_end"
        /// Hours reaching outside the study's earliest start and latest end.
        case outsideBounds = "outside_bounds"
        /// Hours shorter than the study's minimum window.
        case windowTooShort = "window_too_short"
        /// The beeps a day with the study's gap do not fit in the hours.
        case doesNotFit = "does_not_fit"
    }

    /// The JSON field at fault within the settings (`beeps_per_day`, `start`, `end`); `nil` when it
    /// is the settings as a whole (beeps that do not fit the hours).
    public let field: String?
    public let reason: Reason
    /// One sentence naming what to change.
    public let message: String

    public init(field: String?, reason: Reason, message: String) {
        self.field = field
        self.reason = reason
        self.message = message
    }

    public var description: String { message }

    /// The field as a JSON path under `prefix` (registration sends the settings as `settings`):
    /// `settings.start`, or `settings` itself for the settings as a whole.
    public func path(under prefix: String?) -> String? {
        guard let field else { return prefix }
        return prefix.map { "\($0).\(field)" } ?? field
    }
}
