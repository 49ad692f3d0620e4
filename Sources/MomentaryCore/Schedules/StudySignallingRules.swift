import Foundation

/// What a study offers its participants to choose: a range of beeps a day with a preset, the
/// minimum gap between beeps, preset hours, and who chooses the hours (`HoursPolicy`). The one
/// check of these rules — the researcher website, `studies import` and the schedule preview all
/// call `problems()` — so a study can never be saved with settings its participants could not
/// register with. The participant side is `participantSettings(for:)`.
public struct StudySignallingRules: Sendable, Hashable {
    /// A field of the rules, named as in study documents.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case beepsPerDay = "beeps_per_day"
        case defaultBeepsPerDay = "default_beeps_per_day"
        case minimumGap = "min_gap_minutes"
        case defaultStart = "default_start"
        case defaultEnd = "default_end"
        case hoursPolicy = "hours_policy"
        case earliestStart = "earliest_start"
        case latestEnd = "latest_end"
        case minimumWindow = "minimum_window_minutes"
    }

    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public let field: Field
        /// One sentence, starting with a capital, naming what to change.
        public let message: String
        public var description: String { message }
    }

    /// The longest minimum gap a study may set: half a day.
    public static let maximumGapMinutes = 720

    public var minBeepsPerDay: Int
    public var maxBeepsPerDay: Int
    public var defaultBeepsPerDay: Int
    public var minimumGapMinutes: Int
    public var defaultStart: TimeOfDay
    public var defaultEnd: TimeOfDay
    /// Who chooses the hours; with `.fixed` the preset hours are everyone's hours.
    public var hoursPolicy: HoursPolicy
    /// With `.bounded` (and only then): where participants' hours may start and must end, and the
    /// shortest hours, in minutes, they may choose.
    public var earliestStart: TimeOfDay?
    public var latestEnd: TimeOfDay?
    public var minimumWindowMinutes: Int?

    public init(minBeepsPerDay: Int, maxBeepsPerDay: Int, defaultBeepsPerDay: Int, minimumGapMinutes: Int,
                defaultStart: TimeOfDay, defaultEnd: TimeOfDay, hoursPolicy: HoursPolicy = .participant,
                earliestStart: TimeOfDay? = nil, latestEnd: TimeOfDay? = nil, minimumWindowMinutes: Int? = nil) {
        self.minBeepsPerDay = minBeepsPerDay
        self.maxBeepsPerDay = maxBeepsPerDay
        self.defaultBeepsPerDay = defaultBeepsPerDay
        self.minimumGapMinutes = minimumGapMinutes
        self.defaultStart = defaultStart
        self.defaultEnd = defaultEnd
        self.hoursPolicy = hoursPolicy
        self.earliestStart = earliestStart
        self.latestEnd = latestEnd
        self.minimumWindowMinutes = minimumWindowMinutes
    }

    /// The settings a participant who changes nothing registers with.
    public var defaultSettings: SignallingSettings {
        SignallingSettings(beepsPerDay: defaultBeepsPerDay, start: defaultStart, end: defaultEnd)
    }

    /// Everything that would stop participants from registering, in field order; empty when usable.
    public func problems() -> [Problem] {
        var problems: [Problem] = []
        let allowed = SignallingSettings.allowedBeepsPerDay
        if !(allowed.contains(minBeepsPerDay) && allowed.contains(maxBeepsPerDay) && minBeepsPerDay <= maxBeepsPerDay) {
            problems.append(Problem(field: .beepsPerDay, message:
                "Beeps a day must range within \(allowed.lowerBound) to \(allowed.upperBound), the fewest not above the most "
                + "(not \(minBeepsPerDay) to \(maxBeepsPerDay))."))
        } else if !(minBeepsPerDay...maxBeepsPerDay).contains(defaultBeepsPerDay) {
            problems.append(Problem(field: .defaultBeepsPerDay, message:
                "The preset of \(defaultBeepsPerDay) beeps a day lies outside the range \(minBeepsPerDay) to \(maxBeepsPerDay)."))
        }
        guard (0...Self.maximumGapMinutes).contains(minimumGapMinutes) else {
            problems.append(Problem(field: .minimumGap, message:
                "The minimum gap must be 0 to \(Self.maximumGapMinutes) minutes, not \(minimumGapMinutes)."))
            return problems
        }
        // The most beeps must fit into the longest hours a participant can have.
        if allowed.contains(maxBeepsPerDay), let longest = longestHours,
           maxBeepsPerDay * minimumGapMinutes > longest.minutes - SignallingSettings.deliveryMarginMinutes {
            problems.append(Problem(field: .minimumGap, message:
                "\(maxBeepsPerDay) beeps a day at least \(minimumGapMinutes) minutes apart do not fit in \(longest.name); "
                + "lower the most beeps a day or the gap\(longest.remedy)."))
        }
        for (field, time) in [(Field.defaultStart, defaultStart), (.defaultEnd, defaultEnd)] where time.minutes % 15 != 0 {
            problems.append(Problem(field: field, message: "The preset hours must be on a quarter hour (:00, :15, :30 or :45), not \(time)."))
        }
        if problems.isEmpty, allowed.contains(defaultBeepsPerDay) {
            do {
                try defaultSettings.validate(minimumGapMinutes: minimumGapMinutes)
            } catch {
                let field: Field = if case .doesNotFit = error { .minimumGap } else { .defaultEnd }
                problems.append(Problem(field: field, message: "With the presets, " + error.description + "."))
            }
        }
        return problems + hoursPolicyProblems()
    }
}
