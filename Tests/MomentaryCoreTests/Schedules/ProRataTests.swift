import Foundation
import Testing
@testable import MomentaryCore

@Suite("Pro rata after a settings change")
struct ProRataTests {
    let zone = TimeZone(identifier: "Europe/Paris")!
    let threeADay = SignallingSettings(beepsPerDay: 3, start: TimeOfDay("08:00")!, end: TimeOfDay("20:00")!)
    let date = LocalDate("2026-06-10")!

    func window() -> SignallingWindow {
        SignallingWindow(localDate: date, settings: threeADay, timeZone: zone)
    }

    func remaining(after change: Date, seed: UInt64, trials: Int) throws -> [[Date]] {
        var generator = Xoshiro256StarStar(seed: seed)
        return try (0..<trials).map { _ in
            try RandomSchedule.remainingBeeps(
                after: change, settings: threeADay, minimumGapMinutes: 60, timeZone: zone, using: &generator)
        }
    }

    @Test("3 a day chosen halfway: 1 beep certainly, a second half the time (mean 1.5)")
    func halfway() throws {
        let window = window()
        let change = window.start.addingTimeInterval(window.end.timeIntervalSince(window.start) / 2)
        let outcomes = try remaining(after: change, seed: 9, trials: 20_000)
        let counts = outcomes.map(\.count)
        #expect(Set(counts) == [1, 2])
        let mean = Double(counts.reduce(0, +)) / Double(counts.count)
        // Standard error is 0.5/√20000 ≈ 0.0035.
        #expect(abs(mean - 1.5) < 0.02, "mean \(mean)")
        for beeps in outcomes {
            #expect(beeps.allSatisfy { $0 >= change && $0 < window.end })
            #expect(zip(beeps, beeps.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 3600 })
        }
    }

    @Test("With a quarter of the window left, 3 a day gives 0.75 beeps on average")
    func lastQuarter() throws {
        let window = window()
        let change = window.end.addingTimeInterval(-window.end.timeIntervalSince(window.start) / 4)
        let counts = try remaining(after: change, seed: 10, trials: 20_000).map(\.count)
        #expect(Set(counts) == [0, 1])
        let mean = Double(counts.reduce(0, +)) / Double(counts.count)
        #expect(abs(mean - 0.75) < 0.02, "mean \(mean)")
    }

    @Test("A change before the window opens plans the whole day; after it closes, nothing")
    func outsideTheWindow() throws {
        let window = window()
        let early = try remaining(after: window.start.addingTimeInterval(-3600), seed: 1, trials: 200)
        #expect(early.allSatisfy { $0.count == 3 && $0.allSatisfy(window.contains) })
        let late = try remaining(after: window.end.addingTimeInterval(60), seed: 1, trials: 50)
        #expect(late.allSatisfy { $0.isEmpty })
    }

    @Test("Remaining beeps are uniform over the rest of the window")
    func uniformOverTheRest() throws {
        let window = window()
        let change = window.start.addingTimeInterval(4 * 3600)
        var picker = Xoshiro256StarStar(seed: 77)
        let rest = window.end.timeIntervalSince(change)
        let positions = try remaining(after: change, seed: 12, trials: 20_000).compactMap { beeps in
            beeps.randomElement(using: &picker).map { $0.timeIntervalSince(change) / rest }
        }
        let critical = KolmogorovSmirnov.criticalValue(count: positions.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(positions) < critical)
    }
}
