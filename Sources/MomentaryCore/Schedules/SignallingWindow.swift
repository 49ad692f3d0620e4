import Foundation

/// One local day's signalling hours as real instants.
///
/// The window of local date D starts at the start time on D and ends at the end time on D, or on
/// D + 1 when the hours cross midnight (22:00–06:00 runs from 22:00 on D to 06:00 on D + 1 and
/// belongs to D). Beeps fall in `[start, end)`, where `end` is 10 minutes before `hoursEnd`.
/// The participant's signalling day D ends at `hoursEnd`; that is when the next day is planned.
public struct SignallingWindow: Sendable, Hashable {
    public let localDate: LocalDate
    /// First instant at which a beep may fall.
    public let start: Date
    /// Beeps fall strictly before this instant: the end time less the delivery margin.
    public let end: Date
    /// The participant's end time on this day: the signalling day ends here.
    public let hoursEnd: Date

    /// The window of `localDate` under `settings` in `timeZone` (settings assumed valid).
    public init(localDate: LocalDate, settings: SignallingSettings, timeZone: TimeZone) {
        let endDate = settings.crossesMidnight ? localDate.adding(days: 1) : localDate
        let (startSeconds, hoursEndSeconds) = WallClock.epochSeconds(
            on: localDate, minuteOfDay: settings.start.minutes, and: endDate, minuteOfDay: settings.end.minutes, in: timeZone)
        self.localDate = localDate
        self.start = Date(timeIntervalSince1970: Double(startSeconds))
        self.hoursEnd = Date(timeIntervalSince1970: Double(hoursEndSeconds))
        self.end = Date(timeIntervalSince1970: Double(hoursEndSeconds - SignallingSettings.deliveryMarginMinutes * 60))
    }

    /// Real (elapsed) seconds in which beeps may fall; may be ≤ 0 on a day when a DST gap
    /// swallows very short hours.
    public var lengthSeconds: Int {
        WallClock.wholeSeconds(end) - WallClock.wholeSeconds(start)
    }

    /// Whether a beep may fall at `instant`.
    public func contains(_ instant: Date) -> Bool {
        instant >= start && instant < end
    }

    /// The signalling day that `instant` belongs to: the first day whose hours have not ended
    /// by `instant`. Its window may not have started yet (then `instant` is before `start`).
    public static func signallingDay(
        containing instant: Date, settings: SignallingSettings, timeZone: TimeZone
    ) -> SignallingWindow {
        let date = WallClock.localDate(of: instant, in: timeZone)
        // A window that crosses midnight may still be open from yesterday.
        var candidate = date.adding(days: -1)
        while true {
            let window = SignallingWindow(localDate: candidate, settings: settings, timeZone: timeZone)
            if instant < window.hoursEnd { return window }
            candidate = candidate.adding(days: 1)
        }
    }
}
