import Foundation

/// Random signal-contingent schedules (Mappiness), with a hard minimum gap between beeps: each
/// beep uniformly distributed over the day's window (`.uniform`), or one beep uniformly
/// distributed within each of n equal blocks of the window (`.stratified`).
///
/// Each day is drawn on its own, so across days only this holds, for either method: the last
/// beep of one day and the first of the next are more than the time between the two windows
/// apart (the hours off plus the 10-minute margin). The gap therefore holds across days when
/// that time is at least the gap (08:00–22:00 leaves 10 h 10 min); with longer hours or a longer
/// gap, the two may be closer than the gap.
public enum RandomSchedule {
    /// The beeps of one local day, sorted, as whole-second instants inside the day's window.
    ///
    /// On a day whose daylight-saving change shortens the window so much that the beeps no
    /// longer fit with the gap, only as many as fit are scheduled: the gap and the hours are
    /// never broken. Stratified sampling then cuts the window into that many blocks.
    public static func beeps<Generator: RandomNumberGenerator>(
        on localDate: LocalDate,
        settings: SignallingSettings,
        minimumGapMinutes: Int,
        timeZone: TimeZone,
        sampling: SamplingMethod = .uniform,
        using generator: inout Generator
    ) throws(SignallingSettingsError) -> [Date] {
        try settings.validate(minimumGapMinutes: minimumGapMinutes)
        return validatedBeeps(
            on: localDate, settings: settings, minimumGapMinutes: minimumGapMinutes,
            timeZone: timeZone, sampling: sampling, using: &generator)
    }

    /// The beeps that replace the rest of the current signalling day after the participant
    /// changed settings at `change` (pro rata).
    ///
    /// The day is the one `change` belongs to under the new settings. Before its window opens,
    /// the whole day is planned afresh; after it closes, nothing remains. Inside it, with a
    /// fraction r of the window left, n·r beeps are due on average:
    /// - uniform: ⌊n·r⌋ certainly and one more with probability n·r − ⌊n·r⌋, placed by circular
    ///   stars and bars over the rest of the window;
    /// - stratified: the whole day is drawn, its blocks over the whole window, and the beeps
    ///   before `change` are dropped. The block holding `change` keeps its beep with probability
    ///   equal to the fraction of the block left (the beep then uniform over that part); later
    ///   blocks keep theirs.
    /// The gap is kept between the new beeps; beeps already sent before `change` are not considered.
    public static func remainingBeeps<Generator: RandomNumberGenerator>(
        after change: Date,
        settings: SignallingSettings,
        minimumGapMinutes: Int,
        timeZone: TimeZone,
        sampling: SamplingMethod = .uniform,
        using generator: inout Generator
    ) throws(SignallingSettingsError) -> [Date] {
        try settings.validate(minimumGapMinutes: minimumGapMinutes)
        let window = SignallingWindow.signallingDay(containing: change, settings: settings, timeZone: timeZone)
        if change <= window.start || sampling == .stratified {
            let day = place(
                count: settings.beepsPerDay, in: window, from: WallClock.wholeSeconds(window.start),
                gapSeconds: minimumGapMinutes * 60, sampling: sampling, using: &generator)
            return day.filter { $0 >= change }
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
            sampling: .uniform, using: &generator)
    }

    /// `beeps(on:…)` for settings already validated (the preview and the benchmark).
    static func validatedBeeps<Generator: RandomNumberGenerator>(
        on localDate: LocalDate,
        settings: SignallingSettings,
        minimumGapMinutes: Int,
        timeZone: TimeZone,
        sampling: SamplingMethod = .uniform,
        using generator: inout Generator
    ) -> [Date] {
        let window = SignallingWindow(localDate: localDate, settings: settings, timeZone: timeZone)
        return place(
            count: settings.beepsPerDay, in: window, from: WallClock.wholeSeconds(window.start),
            gapSeconds: minimumGapMinutes * 60, sampling: sampling, using: &generator)
    }

    /// Up to `count` beeps in `[from, window.end)`, fewer only if they cannot fit with the gap.
    private static func place<Generator: RandomNumberGenerator>(
        count: Int, in window: SignallingWindow, from: Int, gapSeconds: Int, sampling: SamplingMethod,
        using generator: inout Generator
    ) -> [Date] {
        let length = WallClock.wholeSeconds(window.end) - from
        guard length > 0 else { return [] }
        let offsets: [Int]
        switch sampling {
        case .uniform:
            let fitting = gapSeconds > 0 ? min(count, length / gapSeconds) : count
            offsets = CircularStarsAndBars.offsets(count: fitting, length: length, gap: gapSeconds, using: &generator)
        case .stratified:
            // Each block needs a second of its own even without a gap.
            let fitting = min(count, length / max(gapSeconds, 1))
            offsets = StratifiedSampling.offsets(count: fitting, length: length, gap: gapSeconds, using: &generator)
        }
        return offsets.map { Date(timeIntervalSince1970: Double(from + $0)) }
    }
}
