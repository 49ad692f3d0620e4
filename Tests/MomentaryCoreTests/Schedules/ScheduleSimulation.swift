import Foundation
@testable import MomentaryCore

/// Runs the random schedule (either sampling method) over many days and checks, for every day,
/// what a participant would notice: the number of beeps, that each lies in the window and within
/// the wall-clock hours, and the gaps. Collects one beep per day, picked at random, as a position
/// in the window (0 = start, 1 = end, in real time) for a uniformity test.
struct ScheduleSimulation {
    var wrongCounts: [String] = []
    var outsideWindow: [String] = []
    var outsideHours: [String] = []
    var shortGaps: [String] = []
    /// Position of one randomly chosen beep per day; uniform on [0, 1) if the algorithm is right.
    var positions: [Double] = []
    /// Position of each day's earliest beep; not uniform, used to show the test has power.
    var firstPositions: [Double] = []
    /// Every day's window and beeps, for checks of their own (the blocks of stratified sampling).
    var days: [(window: SignallingWindow, beeps: [Date])] = []

    var problems: [String] { wrongCounts + outsideWindow + outsideHours + shortGaps }

    init(
        settings: SignallingSettings, gapMinutes: Int, zone: TimeZone, dates: [LocalDate],
        expectedCount: Int? = nil, sampling: SamplingMethod = .uniform, seed: UInt64
    ) throws {
        var generator = Xoshiro256StarStar(seed: seed)
        var picker = Xoshiro256StarStar(seed: ~seed)
        for date in dates {
            let beeps = try RandomSchedule.beeps(
                on: date, settings: settings, minimumGapMinutes: gapMinutes, timeZone: zone, sampling: sampling,
                using: &generator)
            let window = SignallingWindow(localDate: date, settings: settings, timeZone: zone)
            days.append((window, beeps))
            record(beeps, window: window, settings: settings, gapMinutes: gapMinutes, zone: zone,
                   expectedCount: expectedCount ?? settings.beepsPerDay, picker: &picker)
        }
    }

    private mutating func record(
        _ beeps: [Date], window: SignallingWindow, settings: SignallingSettings, gapMinutes: Int,
        zone: TimeZone, expectedCount: Int, picker: inout Xoshiro256StarStar
    ) {
        let day = window.localDate
        if beeps.count != expectedCount { wrongCounts.append("\(day): \(beeps.count) beeps") }
        for beep in beeps {
            if !window.contains(beep) { outsideWindow.append("\(day): \(beep)") }
            if !Self.withinHours(beep, settings: settings, zone: zone) { outsideHours.append("\(day): \(beep)") }
        }
        for (earlier, later) in zip(beeps, beeps.dropFirst())
        where later.timeIntervalSince(earlier) < Double(gapMinutes * 60) {
            shortGaps.append("\(day): \(earlier) → \(later)")
        }
        guard let chosen = beeps.randomElement(using: &picker), let first = beeps.first else { return }
        let length = window.end.timeIntervalSince(window.start)
        positions.append(chosen.timeIntervalSince(window.start) / length)
        firstPositions.append(first.timeIntervalSince(window.start) / length)
    }

    /// Whether the local wall-clock time of `beep` lies within the hours less the margin.
    static func withinHours(_ beep: Date, settings: SignallingSettings, zone: TimeZone) -> Bool {
        let local = WallClock.localSeconds(of: Int(beep.timeIntervalSince1970), in: zone)
        let minute = Double((local % 86_400 + 86_400) % 86_400) / 60
        let start = Double(settings.start.minutes)
        let lastEnd = Double((settings.end.minutes - SignallingSettings.deliveryMarginMinutes + 1440) % 1440)
        return lastEnd > start ? minute >= start && minute < lastEnd : minute >= start || minute < lastEnd
    }

    static func days(from first: LocalDate, count: Int) -> [LocalDate] {
        (0..<count).map { first.adding(days: $0) }
    }
}
