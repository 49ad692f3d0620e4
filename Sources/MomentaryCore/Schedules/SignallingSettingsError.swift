import Foundation

/// Why signalling settings (or the study's minimum gap) cannot be used; the description is one
/// clear sentence that can be shown to a participant or researcher.
public enum SignallingSettingsError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case beepsPerDayOutOfRange(Int)
    case notOnQuarterHour(field: String, time: TimeOfDay)
    case sameStartAndEnd(TimeOfDay)
    case negativeGap(minutes: Int)
    case doesNotFit(beepsPerDay: Int, gapMinutes: Int, start: TimeOfDay, end: TimeOfDay, usableMinutes: Int)

    public var description: String {
        switch self {
        case .beepsPerDayOutOfRange(let count):
            return "beeps a day must be 1 to \(SignallingSettings.allowedBeepsPerDay.upperBound), not \(count)"
        case .notOnQuarterHour(let field, let time):
            return "the \(field) time \(time) is not on a quarter hour; use :00, :15, :30 or :45"
        case .sameStartAndEnd(let time):
            return "the signalling hours start and end at the same time (\(time)); choose an end time different from the start"
        case .negativeGap(let minutes):
            return "the minimum gap between beeps must be 0 minutes or more, not \(minutes)"
        case .doesNotFit(let beeps, let gap, let start, let end, let usable):
            let subject = beeps == 1 ? "1 beep a day" : "\(beeps) beeps a day"
            let verb = beeps == 1 ? "does" : "do"
            let between = beeps == 1 ? "between beeps" : "between them"
            return "\(subject) with at least \(gap) minutes \(between) \(verb) not fit in "
                + "\(Self.duration(usable)) of signalling hours (\(start)–\(end), beeps stop 10 minutes before the end); "
                + "choose fewer beeps, longer hours or a shorter gap"
        }
    }

    public var errorDescription: String? { description }

    /// "3 h 50 min", "45 min", "2 h".
    static func duration(_ minutes: Int) -> String {
        switch (minutes / 60, minutes % 60) {
        case (0, let m): "\(m) min"
        case (let h, 0): "\(h) h"
        case (let h, let m): "\(h) h \(m) min"
        }
    }
}
