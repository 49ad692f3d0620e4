import Foundation

/// The study side of `HoursPolicy`: the fields each policy needs or refuses, and what the bounds
/// demand of the presets. Part of `problems()`.
extension StudySignallingRules {
    /// The bounds of a `.bounded` study, once usable (both set, on quarter hours, different).
    var bounds: HoursBounds? {
        hoursPolicy == .bounded ? HoursBounds(earliestStart: earliestStart, latestEnd: latestEnd) : nil
    }

    /// The longest hours a participant can have, which the most beeps a day must fit: a whole day,
    /// the bounds, or the fixed hours. `nil` while those are unusable (their own problems say why).
    var longestHours: (minutes: Int, name: String, remedy: String)? {
        let margin = "(beeps stop \(SignallingSettings.deliveryMarginMinutes) minutes before the end)"
        switch hoursPolicy {
        case .participant:
            return (24 * 60, "a day", "")
        case .bounded:
            return bounds.map { ($0.minutes, "the bounds \($0) \(margin)", ", or widen the bounds") }
        case .fixed:
            guard defaultStart != defaultEnd else { return nil }
            return (defaultSettings.hoursMinutes, "the study's hours \(defaultStart)–\(defaultEnd) \(margin)",
                    ", or lengthen the hours")
        }
    }

    /// The problems of `earliest_start`, `latest_end` and `minimum_window_minutes`, and of the
    /// presets measured against them.
    func hoursPolicyProblems() -> [Problem] {
        let boundFields: [(field: Field, name: String, isSet: Bool)] = [
            (.earliestStart, "an earliest start", earliestStart != nil),
            (.latestEnd, "a latest end", latestEnd != nil),
            (.minimumWindow, "a minimum window", minimumWindowMinutes != nil),
        ]
        guard hoursPolicy == .bounded else {
            // A document field nobody reads is refused by name, never dropped in silence.
            let why = hoursPolicy == .fixed ? "The hours are fixed" : "Participants choose any hours"
            return boundFields.filter(\.isSet).map {
                Problem(field: $0.field, message:
                    "\(why), so \($0.name) does not apply; remove it, or bound the hours (hours_policy bounded).")
            }
        }
        var problems: [Problem] = []
        for (bound, time) in zip(boundFields.prefix(2), [earliestStart, latestEnd]) {
            guard let time else {
                problems.append(Problem(field: bound.field, message:
                    "Bounded hours need \(bound.name); give it as HH:MM on a quarter hour."))
                continue
            }
            if time.minutes % 15 != 0 {
                // "an earliest start" → "The earliest start"
                let the = "The" + bound.name.drop { $0 != " " }
                problems.append(Problem(field: bound.field, message:
                    "\(the) must be on a quarter hour (:00, :15, :30 or :45), not \(time)."))
            }
        }
        if let earliestStart, earliestStart == latestEnd {
            problems.append(Problem(field: .latestEnd, message:
                "The latest end must differ from the earliest start (\(earliestStart)); "
                + "an end earlier than the start bounds hours across midnight."))
        }
        guard let window = minimumWindowMinutes else {
            problems.append(Problem(field: .minimumWindow, message:
                "Bounded hours need a minimum window; give the shortest hours, in minutes, a participant may choose."))
            return problems
        }
        // Participants' hours are whole quarter hours, so any other minimum could never be met exactly.
        guard window % 15 == 0, (15...1440).contains(window) else {
            problems.append(Problem(field: .minimumWindow, message:
                "The minimum window must be a whole number of quarter hours (15, 30, 45 … minutes), not \(window)."))
            return problems
        }
        guard let bounds else { return problems }
        guard window <= bounds.minutes else {
            problems.append(Problem(field: .minimumWindow, message:
                "A minimum window of \(duration(window)) does not fit in the bounds \(bounds) (\(duration(bounds.minutes))); "
                + "shorten it or widen the bounds."))
            return problems
        }
        problems += presetProblems(bounds: bounds, window: window)
        return problems
    }

    /// The preset hours must be hours a participant could choose, and the preset beeps a day must
    /// fit the shortest of those, so that keeping the preset is never refused.
    private func presetProblems(bounds: HoursBounds, window: Int) -> [Problem] {
        var problems: [Problem] = []
        if defaultStart != defaultEnd, let fault = bounds.fault(start: defaultStart, end: defaultEnd, minimumWindow: window) {
            let field: Field = fault.field == "start" ? .defaultStart : .defaultEnd
            let hours = "\(defaultStart)–\(defaultEnd)"
            let message = fault.reason == .outsideBounds
                ? "The preset hours \(hours) reach outside the bounds \(bounds); choose preset hours within them."
                : "The preset hours \(hours) last \(duration(defaultSettings.hoursMinutes)), less than the minimum window "
                    + "of \(duration(window)); lengthen them or shorten the minimum window."
            problems.append(Problem(field: field, message: message))
        }
        let gapIsValid = (0...Self.maximumGapMinutes).contains(minimumGapMinutes)
        if gapIsValid, SignallingSettings.allowedBeepsPerDay.contains(defaultBeepsPerDay) {
            let needed = defaultBeepsPerDay * minimumGapMinutes + SignallingSettings.deliveryMarginMinutes
            if needed > window {
                let beeps = defaultBeepsPerDay == 1 ? "1 beep" : "\(defaultBeepsPerDay) beeps"
                problems.append(Problem(field: .minimumWindow, message:
                    "With the preset of \(beeps) a day at least \(minimumGapMinutes) minutes apart, hours of "
                    + "\(duration(window)) are too short (beeps stop \(SignallingSettings.deliveryMarginMinutes) minutes "
                    + "before the end); raise the minimum window to at least \((needed + 14) / 15 * 15) minutes, "
                    + "or lower the preset beeps a day or the gap."))
            }
        }
        return problems
    }

    func duration(_ minutes: Int) -> String { SignallingSettingsError.duration(minutes) }
}
