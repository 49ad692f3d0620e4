import Foundation
import Testing
@testable import MomentaryCore

/// Daylight-saving days: the window is measured in real minutes, beeps stay within the
/// wall-clock hours, none is skipped or doubled, and they remain uniform over real time.
@Suite("Random schedule on daylight-saving days")
struct RandomScheduleDSTTests {
    struct Transition: CustomTestStringConvertible, Sendable {
        let zone: String
        let date: String
        let hours: (String, String)
        /// Real window length minus nominal, in minutes, from the zone's rules for that day.
        let changeMinutes: Int
        var testDescription: String { "\(zone) \(date) \(hours.0)–\(hours.1)" }
    }

    static let transitions: [Transition] = [
        Transition(zone: "Europe/London", date: "2026-03-29", hours: ("00:00", "06:00"), changeMinutes: -60),
        Transition(zone: "Europe/London", date: "2026-10-25", hours: ("00:00", "06:00"), changeMinutes: 60),
        Transition(zone: "America/New_York", date: "2026-03-08", hours: ("01:00", "08:00"), changeMinutes: -60),
        Transition(zone: "America/New_York", date: "2026-11-01", hours: ("01:00", "08:00"), changeMinutes: 60),
        // Southern hemisphere: clocks go back in April and forward in October.
        Transition(zone: "Australia/Sydney", date: "2026-04-05", hours: ("00:30", "07:00"), changeMinutes: 60),
        Transition(zone: "Australia/Sydney", date: "2026-10-04", hours: ("00:30", "07:00"), changeMinutes: -60),
        // Lord Howe Island moves its clocks by 30 minutes.
        Transition(zone: "Australia/Lord_Howe", date: "2026-04-05", hours: ("00:00", "05:00"), changeMinutes: 30),
        Transition(zone: "Australia/Lord_Howe", date: "2026-10-04", hours: ("00:00", "05:00"), changeMinutes: -30),
        // Night shifts: the change happens inside a window that started the evening before.
        Transition(zone: "Europe/London", date: "2026-03-28", hours: ("22:00", "06:00"), changeMinutes: -60),
        Transition(zone: "America/New_York", date: "2026-10-31", hours: ("21:00", "07:00"), changeMinutes: 60),
        Transition(zone: "Australia/Lord_Howe", date: "2026-10-03", hours: ("20:00", "04:00"), changeMinutes: -30),
    ]

    @Test("The window is measured in real minutes", arguments: transitions)
    func realLength(transition: Transition) throws {
        let settings = SignallingSettings(
            beepsPerDay: 3, start: TimeOfDay(transition.hours.0)!, end: TimeOfDay(transition.hours.1)!)
        let window = SignallingWindow(
            localDate: LocalDate(transition.date)!, settings: settings,
            timeZone: TimeZone(identifier: transition.zone)!)
        #expect(window.lengthSeconds == (settings.usableMinutes + transition.changeMinutes) * 60)
    }

    @Test("20,000 schedules of the day: count, window, hours, gap and uniformity", arguments: transitions)
    func manySchedules(transition: Transition) throws {
        let settings = SignallingSettings(
            beepsPerDay: 3, start: TimeOfDay(transition.hours.0)!, end: TimeOfDay(transition.hours.1)!)
        let date = LocalDate(transition.date)!
        let run = try ScheduleSimulation(
            settings: settings, gapMinutes: 60, zone: TimeZone(identifier: transition.zone)!,
            dates: Array(repeating: date, count: 20_000), seed: 2026)
        #expect(run.problems.isEmpty, "\(run.problems.prefix(5))")
        let critical = KolmogorovSmirnov.criticalValue(count: run.positions.count, alpha: 0.001)
        let statistic = KolmogorovSmirnov.statisticAgainstUniform(run.positions)
        #expect(statistic < critical, "KS D = \(statistic), critical \(critical)")
    }

    @Test("Hours swallowed by a spring-forward gap give no beep rather than one outside the hours")
    func hoursInsideTheGap() throws {
        // 02:00–02:30 does not exist on 8 March 2026 in New York.
        var generator = Xoshiro256StarStar(seed: 1)
        let settings = SignallingSettings(beepsPerDay: 1, start: TimeOfDay("02:00")!, end: TimeOfDay("02:30")!)
        let beeps = try RandomSchedule.beeps(
            on: LocalDate("2026-03-08")!, settings: settings, minimumGapMinutes: 10,
            timeZone: TimeZone(identifier: "America/New_York")!, using: &generator)
        #expect(beeps.isEmpty)
    }

    @Test("A day shortened by DST schedules only the beeps that still fit with the gap")
    func shortenedDayKeepsTheGap() throws {
        // 00:00–04:00 leaves 230 minutes, which holds 3 beeps 75 minutes apart (225), but the
        // spring-forward day has only 170 real minutes.
        let settings = SignallingSettings(beepsPerDay: 3, start: TimeOfDay("00:00")!, end: TimeOfDay("04:00")!)
        let run = try ScheduleSimulation(
            settings: settings, gapMinutes: 75, zone: TimeZone(identifier: "America/New_York")!,
            dates: Array(repeating: LocalDate("2026-03-08")!, count: 1_000), expectedCount: 2, seed: 4)
        #expect(run.problems.isEmpty, "\(run.problems.prefix(5))")
    }
}
