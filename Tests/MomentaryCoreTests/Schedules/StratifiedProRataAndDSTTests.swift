import Foundation
import Testing
@testable import MomentaryCore

@Suite("Stratified schedule: pro rata and daylight saving")
struct StratifiedProRataAndDSTTests {
    let paris = TimeZone(identifier: "Europe/Paris")!
    let threeADay = SignallingSettings(beepsPerDay: 3, start: TimeOfDay("08:00")!, end: TimeOfDay("20:00")!)
    let date = LocalDate("2026-06-10")!

    func window() -> SignallingWindow {
        SignallingWindow(localDate: date, settings: threeADay, timeZone: paris)
    }

    func remaining(after change: Date, seed: UInt64, trials: Int) throws -> [[Date]] {
        var generator = Xoshiro256StarStar(seed: seed)
        return try (0..<trials).map { _ in
            try RandomSchedule.remainingBeeps(
                after: change, settings: threeADay, minimumGapMinutes: 60, timeZone: paris, sampling: .stratified,
                using: &generator)
        }
    }

    @Test("A change a quarter into block 2: it keeps its beep 3 times in 4, uniform over its rest; block 3 always")
    func blockHoldingTheChange() throws {
        let blocks = StratifiedBlocks(window: window(), count: 3)
        let changeSecond = blocks.start(1) + blocks.blockLength / 4
        let change = Date(timeIntervalSince1970: Double(changeSecond))
        let outcomes = try remaining(after: change, seed: 21, trials: 20_000)
        let inBlock2 = outcomes.compactMap { beeps in beeps.first { Int($0.timeIntervalSince1970) < blocks.start(2) } }
        let kept = Double(inBlock2.count) / Double(outcomes.count)
        // Standard error √(0.75 · 0.25 / 20,000) ≈ 0.003.
        #expect(abs(kept - 0.75) < 0.015, "block 2 kept its beep in \(kept) of the days")
        let blockEnd = Double(blocks.start(1) + blocks.blockLength)
        let positions = inBlock2.map { ($0.timeIntervalSince1970 - Double(changeSecond)) / (blockEnd - Double(changeSecond)) }
        let critical = KolmogorovSmirnov.criticalValue(count: positions.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(positions) < critical)
        let end = window().end
        #expect(outcomes.allSatisfy { beeps in beeps.filter { Int($0.timeIntervalSince1970) >= blocks.start(2) }.count == 1 })
        #expect(outcomes.allSatisfy { beeps in beeps.allSatisfy { $0 >= change && $0 < end } })
        #expect(outcomes.allSatisfy { beeps in zip(beeps, beeps.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 3600 } })
    }

    @Test("The expected number left is n times the fraction of the window left", arguments: [0.2, 0.5, 0.85])
    func expectedCount(elapsed: Double) throws {
        let window = window()
        let change = window.start.addingTimeInterval((window.end.timeIntervalSince(window.start) * elapsed).rounded())
        let counts = try remaining(after: change, seed: UInt64(elapsed * 100), trials: 20_000).map(\.count)
        let mean = Double(counts.reduce(0, +)) / Double(counts.count)
        // Only the block holding the change varies, so the standard error is at most 0.5/√20,000 ≈ 0.0035.
        #expect(abs(mean - 3 * (1 - elapsed)) < 0.02, "mean \(mean)")
    }

    @Test("The beeps left are the day's stratified draw without those before the change")
    func sameAsTheDay() throws {
        let window = window()
        for (seed, hours) in [(1, 0.5), (2, 3.0), (3, 7.25), (4, 11.5)] {
            let change = window.start.addingTimeInterval(hours * 3600)
            var first = Xoshiro256StarStar(seed: UInt64(seed))
            var second = Xoshiro256StarStar(seed: UInt64(seed))
            let day = try RandomSchedule.beeps(
                on: date, settings: threeADay, minimumGapMinutes: 60, timeZone: paris, sampling: .stratified,
                using: &first)
            let rest = try RandomSchedule.remainingBeeps(
                after: change, settings: threeADay, minimumGapMinutes: 60, timeZone: paris, sampling: .stratified,
                using: &second)
            #expect(rest == day.filter { $0 >= change })
        }
    }

    @Test("A change before the window opens plans the whole day; after it closes, nothing")
    func outsideTheWindow() throws {
        let window = window()
        let blocks = StratifiedBlocks(window: window, count: 3)
        let early = try remaining(after: window.start.addingTimeInterval(-3600), seed: 1, trials: 200)
        #expect(early.allSatisfy { blocks.offsets($0) != nil })
        let late = try remaining(after: window.end.addingTimeInterval(60), seed: 1, trials: 50)
        #expect(late.allSatisfy { $0.isEmpty })
    }

    struct ClockChange: CustomTestStringConvertible, Sendable {
        let date: String
        let hours: (String, String)
        /// Real minutes in which beeps may fall that day.
        let realMinutes: Int
        var testDescription: String { "Europe/London \(date) \(hours.0)–\(hours.1)" }
    }

    static let clockChanges = [
        ClockChange(date: "2026-03-29", hours: ("00:00", "06:00"), realMinutes: 290),
        ClockChange(date: "2026-10-25", hours: ("00:00", "06:00"), realMinutes: 410),
        ClockChange(date: "2026-03-28", hours: ("22:00", "06:00"), realMinutes: 410),
        ClockChange(date: "2026-10-24", hours: ("22:00", "06:00"), realMinutes: 530),
    ]

    @Test("Europe/London clock changes: blocks cut the real window, each beep uniform within its own",
          arguments: clockChanges)
    func clockChange(change: ClockChange) throws {
        let zone = TimeZone(identifier: "Europe/London")!
        let settings = SignallingSettings(beepsPerDay: 3, start: TimeOfDay(change.hours.0)!, end: TimeOfDay(change.hours.1)!)
        let date = LocalDate(change.date)!
        let window = SignallingWindow(localDate: date, settings: settings, timeZone: zone)
        #expect(window.lengthSeconds == change.realMinutes * 60)
        let simulation = try ScheduleSimulation(
            settings: settings, gapMinutes: 60, zone: zone, dates: Array(repeating: date, count: 10_000),
            sampling: .stratified, seed: 2026)
        #expect(simulation.problems.isEmpty, "\(simulation.problems.prefix(5))")
        let blocks = StratifiedBlocks(window: window, count: 3)
        let offsets = simulation.days.compactMap { blocks.offsets($0.beeps) }
        #expect(offsets.count == 10_000)
        for (block, test) in StratifiedBlocks.uniformity(offsets, blockLength: blocks.blockLength).enumerated() {
            #expect(test.statistic < test.critical, "block \(block + 1): KS D = \(test.statistic), critical \(test.critical)")
        }
    }

    @Test("A spring-forward day too short for n beeps with the gap is cut into as many blocks as fit")
    func shortenedDay() throws {
        // 00:00–06:00 leaves 350 minutes, enough for 3 beeps 100 minutes apart; on 29 March the
        // real window is 290 minutes, so 2 blocks of 145 minutes. The autumn day keeps 3.
        let zone = TimeZone(identifier: "Europe/London")!
        let settings = SignallingSettings(beepsPerDay: 3, start: TimeOfDay("00:00")!, end: TimeOfDay("06:00")!)
        for (day, count) in [("2026-03-29", 2), ("2026-10-25", 3)] {
            let date = LocalDate(day)!
            let simulation = try ScheduleSimulation(
                settings: settings, gapMinutes: 100, zone: zone, dates: Array(repeating: date, count: 2_000),
                expectedCount: count, sampling: .stratified, seed: 5)
            #expect(simulation.problems.isEmpty, "\(day): \(simulation.problems.prefix(5))")
            let blocks = StratifiedBlocks(window: SignallingWindow(localDate: date, settings: settings, timeZone: zone), count: count)
            #expect(simulation.days.allSatisfy { blocks.offsets($0.beeps) != nil }, "\(day)")
        }
    }
}
