import Foundation
import Testing
@testable import MomentaryCore

@Suite("Random schedule")
struct RandomScheduleTests {
    let london = TimeZone(identifier: "Europe/London")!

    func settings(_ beeps: Int, _ start: String, _ end: String) -> SignallingSettings {
        SignallingSettings(beepsPerDay: beeps, start: TimeOfDay(start)!, end: TimeOfDay(end)!)
    }

    @Test("Over 20,000 days each beep is uniform over the window, and every day keeps count, window and gap")
    func uniformOverManyDays() throws {
        let days = ScheduleSimulation.days(from: LocalDate("2026-01-01")!, count: 20_000)
        let run = try ScheduleSimulation(
            settings: settings(3, "08:00", "20:00"), gapMinutes: 90, zone: london, dates: days, seed: 7)
        #expect(run.problems.isEmpty, "\(run.problems.prefix(5))")
        let critical = KolmogorovSmirnov.criticalValue(count: run.positions.count, alpha: 0.001)
        let statistic = KolmogorovSmirnov.statisticAgainstUniform(run.positions)
        #expect(run.positions.count == 20_000)
        #expect(statistic < critical, "KS D = \(statistic), critical \(critical)")
    }

    @Test("The uniformity test detects a skewed sample (each day's first beep is not uniform)")
    func uniformityTestHasPower() throws {
        let days = ScheduleSimulation.days(from: LocalDate("2026-01-01")!, count: 20_000)
        let run = try ScheduleSimulation(
            settings: settings(3, "08:00", "20:00"), gapMinutes: 90, zone: london, dates: days, seed: 7)
        let critical = KolmogorovSmirnov.criticalValue(count: run.firstPositions.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(run.firstPositions) > critical)
    }

    @Test("Frequencies from 1 to 24 keep count, window and gap", arguments: [
        (1, 60), (2, 60), (3, 60), (5, 60), (6, 60), (12, 60), (15, 60), (18, 45), (24, 30),
    ])
    func everyFrequency(beeps: Int, gap: Int) throws {
        let days = ScheduleSimulation.days(from: LocalDate("2026-01-01")!, count: beeps > 6 ? 500 : 2_000)
        let run = try ScheduleSimulation(
            settings: settings(beeps, "07:30", "23:00"), gapMinutes: gap,
            zone: TimeZone(identifier: "America/New_York")!, dates: days, seed: UInt64(beeps))
        #expect(run.problems.isEmpty, "\(run.problems.prefix(5))")
        let critical = KolmogorovSmirnov.criticalValue(count: run.positions.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(run.positions) < critical)
    }

    @Test("Settings that fit exactly (n·gap = window) still keep every gap")
    func exactFit() throws {
        // 08:00–09:15 leaves 65 minutes; five beeps 13 minutes apart fill it exactly.
        let days = ScheduleSimulation.days(from: LocalDate("2026-05-01")!, count: 2_000)
        let run = try ScheduleSimulation(
            settings: settings(5, "08:00", "09:15"), gapMinutes: 13, zone: london, dates: days, seed: 3)
        #expect(run.problems.isEmpty, "\(run.problems.prefix(5))")
    }

    @Test("Hours that cross midnight: 22:00–06:00 belongs to the start day and keeps all properties")
    func acrossMidnight() throws {
        let days = ScheduleSimulation.days(from: LocalDate("2026-01-01")!, count: 20_000)
        let night = settings(3, "22:00", "06:00")
        let run = try ScheduleSimulation(settings: night, gapMinutes: 60, zone: london, dates: days, seed: 11)
        #expect(run.problems.isEmpty, "\(run.problems.prefix(5))")
        let critical = KolmogorovSmirnov.criticalValue(count: run.positions.count, alpha: 0.001)
        #expect(KolmogorovSmirnov.statisticAgainstUniform(run.positions) < critical)

        var generator = Xoshiro256StarStar(seed: 1)
        let beeps = try RandomSchedule.beeps(
            on: LocalDate("2026-07-14")!, settings: night, minimumGapMinutes: 60, timeZone: london, using: &generator)
        // 22:00 BST on 14 July is 21:00 UTC; 05:50 BST on 15 July is 04:50 UTC.
        let start = try #require(ISO8601DateFormatter().date(from: "2026-07-14T21:00:00Z"))
        let end = try #require(ISO8601DateFormatter().date(from: "2026-07-15T04:50:00Z"))
        #expect(beeps.allSatisfy { $0 >= start && $0 < end })
    }

    @Test("The same seed reproduces a schedule exactly; another seed gives another")
    func seedReproducibility() throws {
        func schedule(seed: UInt64) throws -> [Date] {
            var generator = Xoshiro256StarStar(seed: seed)
            return try (0..<50).flatMap { offset in
                try RandomSchedule.beeps(
                    on: LocalDate("2026-03-25")!.adding(days: offset), settings: settings(3, "08:00", "20:00"),
                    minimumGapMinutes: 90, timeZone: london, using: &generator)
            }
        }
        #expect(try schedule(seed: 7) == schedule(seed: 7))
        #expect(try schedule(seed: 7) != schedule(seed: 8))
    }

    @Test("Beeps are whole-second instants")
    func wholeSeconds() throws {
        var generator = Xoshiro256StarStar(seed: 5)
        let beeps = try RandomSchedule.beeps(
            on: LocalDate("2026-06-01")!, settings: .standard, minimumGapMinutes: 60, timeZone: london,
            using: &generator)
        #expect(beeps.count == 2)
        #expect(beeps.allSatisfy { $0.timeIntervalSince1970 == $0.timeIntervalSince1970.rounded() })
    }

    @Test("Settings are checked before scheduling")
    func rejectsInvalidSettings() {
        var generator = Xoshiro256StarStar(seed: 1)
        #expect(throws: SignallingSettingsError.self) {
            try RandomSchedule.beeps(
                on: LocalDate("2026-06-01")!, settings: settings(3, "08:00", "12:00"), minimumGapMinutes: 90,
                timeZone: london, using: &generator)
        }
    }
}
