import Foundation

/// Random signal-contingent schedules (Mappiness): each beep uniformly distributed over the
/// day's window, with a hard minimum gap between beeps.
public enum RandomSchedule {
    /// The beeps of one local day, sorted, as whole-second instants inside the day's window.
    ///
    /// On a day whose daylight-saving change shortens the window so much that the beeps no
    /// longer fit with the gap, only as many as fit are scheduled: the gap and the hours are
    /// never broken.
    public static func beeps<Generator: RandomNumberGenerator>(
        on localDate: LocalDate,
        settings: SignallingSettings,
        minimumGapMinutes: Int,
        timeZone: TimeZone,
        using generator: inout Generator
    ) throws(SignallingSettingsError) -> [Date] {
        try settings.validate(minimumGapMinutes: minimumGapMinutes)
        return validatedBeeps(
            on: localDate, settings: settings, minimumGapMinutes: minimumGapMinutes,
            timeZone: timeZone, using: &generator)
    }

    /// The beeps that replace the rest of the current signalling day after the participant
    /// changed settings at `change` (pro rata).
    ///
    /// The day is the one `change` belongs to under the new settings. Before its window opens,
    /// the whole day is planned afresh; after it closes, nothing remains. Inside it, with a
    /// fraction r of the window left, x = n·r beeps are due: ⌊x⌋ certainly and one more with
    /// probability x − ⌊x⌋, placed by the same algorithm over the rest of the window. The gap is
    /// kept between the new beeps; beeps already sent before `change` are not considered.
    public static func remainingBeeps<Generator: RandomNumberGenerator>(
        after change: Date,
        settings: SignallingSettings,
        minimumGapMinutes: Int,
        timeZone: TimeZone,
        using generator: inout Generator
    ) throws(SignallingSettingsError) -> [Date] {
        try settings.validate(minimumGapMinutes: minimumGapMinutes)
        let window = SignallingWindow.signallingDay(containing: change, settings: settings, timeZone: timeZone)
        if change <= window.start {
            return place(
                count: settings.beepsPerDay, in: window, from: WallClock.wholeSeconds(window.start),
                gapSeconds: minimumGapMinutes * 60, using: &generator)
        }
        // Beeps are whole seconds, so the rest of the window starts at the next whole second.
        let from = Int(change.timeIntervalSince1970.rounded(.up))
        let end = WallClock.wholeSeconds(window.end)
        guard from < end, window.lengthSeconds > 0 else { return [] }
        let due = Double(settings.beepsPerDay) * Double(end - from) / Double(window.lengthSeconds)
        let certain = Int(due.rounded(.down))
        let extra = UniformDraw.fraction(using: &generator) < due - Double(certain) ? 1 : 0
        return place(
            count: certain + extra, in: window, from: from, gapSeconds: minimumGapMinutes * 60,
            using: &generator)
    }

    /// `beeps(on:…)` for settings already validated (the preview and the benchmark).
    static func validatedBeeps<Generator: RandomNumberGenerator>(
        on localDate: LocalDate,
        settings: SignallingSettings,
        minimumGapMinutes: Int,
        timeZone: TimeZone,
        using generator: inout Generator
    ) -> [Date] {
        let window = SignallingWindow(localDate: localDate, settings: settings, timeZone: timeZone)
        return place(
            count: settings.beepsPerDay, in: window, from: WallClock.wholeSeconds(window.start),
            gapSeconds: minimumGapMinutes * 60, using: &generator)
    }

    /// Up to `count` beeps in `[from, window.end)`, fewer only if they cannot fit with the gap.
    private static func place<Generator: RandomNumberGenerator>(
        count: Int, in window: SignallingWindow, from: Int, gapSeconds: Int,
        using generator: inout Generator
    ) -> [Date] {
        let length = WallClock.wholeSeconds(window.end) - from
        guard length > 0 else { return [] }
        let fitting = gapSeconds > 0 ? min(count, length / gapSeconds) : count
        return CircularStarsAndBars.offsets(count: fitting, length: length, gap: gapSeconds, using: &generator)
            .map { Date(timeIntervalSince1970: Double(from + $0)) }
    }
}
