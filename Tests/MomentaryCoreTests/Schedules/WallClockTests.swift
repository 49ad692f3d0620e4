import Foundation
import Testing
@testable import MomentaryCore

@Suite("Local dates and wall-clock time")
struct WallClockTests {
    let newYork = TimeZone(identifier: "America/New_York")!

    func utc(_ date: Date) -> String { TimestampText.utc(date) }

    @Test("A time inside the spring-forward gap moves to the first valid minute")
    func springForwardGap() {
        let date = LocalDate("2026-03-08")!
        #expect(utc(WallClock.instant(on: date, at: TimeOfDay("02:30")!, in: newYork)) == "2026-03-08T07:00:00Z")
        #expect(utc(WallClock.instant(on: date, at: TimeOfDay("03:00")!, in: newYork)) == "2026-03-08T07:00:00Z")
        #expect(utc(WallClock.instant(on: date, at: TimeOfDay("01:59")!, in: newYork)) == "2026-03-08T06:59:00Z")
        let lordHowe = TimeZone(identifier: "Australia/Lord_Howe")!
        // Lord Howe skips 02:00–02:30 (+10:30 → +11:00) on 4 October 2026.
        #expect(utc(WallClock.instant(on: LocalDate("2026-10-04")!, at: TimeOfDay("02:15")!, in: lordHowe))
            == "2026-10-03T15:30:00Z")
    }

    @Test("A time that happens twice takes its first occurrence")
    func fallBackOverlap() {
        let date = LocalDate("2026-11-01")!
        #expect(utc(WallClock.instant(on: date, at: TimeOfDay("01:30")!, in: newYork)) == "2026-11-01T05:30:00Z")
        #expect(utc(WallClock.instant(on: date, at: TimeOfDay("02:00")!, in: newYork)) == "2026-11-01T07:00:00Z")
    }

    @Test("Local dates parse strictly, count days and know their weekday")
    func localDates() throws {
        let date = try #require(LocalDate("2017-05-05"))
        #expect(date.weekday == .fri)
        #expect(date.adding(days: 30).description == "2017-06-04")
        #expect(LocalDate("2024-02-28")!.adding(days: 1).description == "2024-02-29")
        #expect(LocalDate("2100-02-28")!.adding(days: 1).description == "2100-03-01")
        #expect(LocalDate("1969-12-31")!.daysSinceEpoch == -1)
        #expect(LocalDate("2017-05-15")! > date)
        for bad in ["2017-5-05", "2017-02-29", "2017-13-01", "17-05-05", "2017-05-05T00:00", ""] {
            #expect(LocalDate(bad) == nil, "\(bad)")
        }
        let json = try JSONEncoder().encode([date])
        #expect(String(decoding: json, as: UTF8.self) == #"["2017-05-05"]"#)
        #expect(try JSONDecoder().decode([LocalDate].self, from: json) == [date])
    }

    // Foundation switches to the Julian calendar before October 1582, so compare from 1700.
    @Test("Day arithmetic agrees with Foundation's Gregorian calendar over centuries")
    func agreesWithCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for days in stride(from: -98_000, through: 200_000, by: 997) {
            let parts = calendar.dateComponents(
                [.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            let date = LocalDate(daysSinceEpoch: days)
            #expect(date.year == parts.year && date.month == parts.month && date.day == parts.day)
            #expect(date.daysSinceEpoch == days)
            // Foundation counts Sunday as 1.
            #expect(Weekday.allCases[(parts.weekday! + 5) % 7] == date.weekday)
        }
    }

    @Test("The local date of an instant follows the zone")
    func localDateOfInstant() {
        let instant = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z
        #expect(WallClock.localDate(of: instant, in: newYork).description == "2026-05-28")
        #expect(WallClock.localDate(of: instant, in: TimeZone(identifier: "Asia/Tokyo")!).description == "2026-05-29")
    }
}
