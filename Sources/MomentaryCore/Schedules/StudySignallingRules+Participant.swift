import Foundation

/// The participant side: what a participant asks for at registration or in a settings change,
/// checked against the study. The server calls this; the web app's settings screen runs the same
/// cases (Tests/Shared/hours-policy-cases.json), so the two refuse the same requests.
extension StudySignallingRules {
    /// The settings a participant gets for `request`, or the first reason to refuse it: beeps a day
    /// in the study's range; hours as the policy allows (a fixed study fills in its own hours and
    /// refuses others); on quarter hours, within the bounds and at least the minimum window long;
    /// the beeps fitting the hours with the gap. Expects rules whose `problems()` are empty; the
    /// alert sound is not checked here (the study's list of sounds is the server's).
    public func participantSettings(for request: SignallingSettingsRequest) throws(ParticipantSettingsProblem) -> SignallingSettings {
        guard request.beepsPerDay >= minBeepsPerDay, request.beepsPerDay <= maxBeepsPerDay else {
            throw ParticipantSettingsProblem(field: "beeps_per_day", reason: .beepsOutOfRange, message:
                "This study asks for \(minBeepsPerDay) to \(maxBeepsPerDay) beeps a day, not \(request.beepsPerDay).")
        }
        let (start, end) = try hours(for: request)
        let settings = SignallingSettings(beepsPerDay: request.beepsPerDay, start: start, end: end, sound: request.sound)
        do throws(SignallingSettingsError) { try settings.validateHours() } catch { throw Self.problem(error) }
        if let bounds, let fault = bounds.fault(start: start, end: end, minimumWindow: minimumWindow) {
            throw Self.boundsProblem(fault, bounds: bounds, window: minimumWindow, start: start, end: end)
        }
        do throws(SignallingSettingsError) {
            try settings.validate(minimumGapMinutes: minimumGapMinutes)
        } catch {
            throw Self.problem(error)
        }
        return settings
    }

    /// The minimum window in force; the smallest possible one while it is unset (a study with problems).
    private var minimumWindow: Int { minimumWindowMinutes ?? 15 }

    /// The requested hours, or the study's when they are fixed.
    private func hours(for request: SignallingSettingsRequest) throws(ParticipantSettingsProblem) -> (TimeOfDay, TimeOfDay) {
        if hoursPolicy == .fixed {
            for (field, given, own) in [("start", request.start, defaultStart), ("end", request.end, defaultEnd)] {
                if let given, given != own {
                    throw ParticipantSettingsProblem(field: field, reason: .hoursFixed, message:
                        "This study's hours are the same for everyone, \(defaultStart)–\(defaultEnd); "
                        + "leave out \(field) or send \(own), not \(given).")
                }
            }
            return (defaultStart, defaultEnd)
        }
        guard let start = request.start else { throw Self.missing("start") }
        guard let end = request.end else { throw Self.missing("end") }
        return (start, end)
    }

    private static func missing(_ field: String) -> ParticipantSettingsProblem {
        ParticipantSettingsProblem(field: field, reason: .hoursRequired, message:
            "The \(field) of the hours is missing; send \(field) as HH:MM on a quarter hour.")
    }

    /// Names the range that would be accepted: starts that leave room for the minimum window, or
    /// ends from the minimum window after this start to the latest end.
    private static func boundsProblem(_ fault: HoursBounds.Fault, bounds: HoursBounds, window: Int,
                                      start: TimeOfDay, end: TimeOfDay) -> ParticipantSettingsProblem {
        let study = "This study's hours lie within \(bounds) and last at least \(SignallingSettingsError.duration(window))"
        let choice = if fault.field == "start" {
            "choose a start from \(bounds.earliestStart) to \(bounds.time(after: bounds.minutes - window)), not \(start)"
        } else {
            "choose an end from \(bounds.time(after: HoursBounds.minutes(from: bounds.earliestStart, to: start) + window)) "
                + "to \(bounds.latestEnd), not \(end)"
        }
        return ParticipantSettingsProblem(field: fault.field, reason: fault.reason, message: "\(study); \(choice).")
    }

    /// The settings' own rules, with the field each names; their words stay as the API has always sent them.
    private static func problem(_ error: SignallingSettingsError) -> ParticipantSettingsProblem {
        switch error {
        case .beepsPerDayOutOfRange:
            ParticipantSettingsProblem(field: "beeps_per_day", reason: .beepsOutOfRange, message: error.description)
        case .notOnQuarterHour(let field, _):
            ParticipantSettingsProblem(field: field, reason: .notOnQuarterHour, message: error.description)
        case .sameStartAndEnd:
            ParticipantSettingsProblem(field: "end", reason: .sameStartAndEnd, message: error.description)
        case .negativeGap, .doesNotFit:
            ParticipantSettingsProblem(field: nil, reason: .doesNotFit, message: error.description)
        }
    }
}
