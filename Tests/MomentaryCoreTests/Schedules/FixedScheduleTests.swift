import Foundation
import Testing
@testable import MomentaryCore

@Suite("Fixed schedules")
struct FixedScheduleTests {
    let chicago = TimeZone(identifier: "America/Chicago")!
    let newYork = TimeZone(identifier: "America/New_York")!

    func document(_ json: String) throws -> FixedScheduleDocument {
        try FixedScheduleDocument.parse(Data(json.utf8))
    }

    func local(_ beeps: [Date], _ zone: TimeZone) -> [String] {
        beeps.map { TimestampText.local($0, in: zone) }
    }

    @Test("Mon/Wed/Fri 09:45 between 5 and 15 May 2017 starts on Friday 5 May, not Wednesday 3 May")
    func beiweDateRange() throws {
        let rules = try document("""
            {"rules": [{"weekly": {"days": ["mon","wed","fri"], "time": "09:45"},
                        "between": {"start": "2017-05-05", "end": "2017-05-15"}}]}
            """)
        let beeps = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2017-04-20")!, timeZone: chicago,
            from: LocalDate("2017-04-01")!, through: LocalDate("2017-08-31")!)
        #expect(local(beeps, chicago) == [
            "2017-05-05T09:45:00-05:00", "2017-05-08T09:45:00-05:00", "2017-05-10T09:45:00-05:00",
            "2017-05-12T09:45:00-05:00", "2017-05-15T09:45:00-05:00",
        ])
    }

    @Test("Relative days count from the registration date; weekly ranges may be relative too")
    func relativeDays() throws {
        let rules = try document("""
            {"rules": [{"relative": {"day": 21, "time": "17:16"}},
                       {"relative": {"day": 0, "time": "20:00"}},
                       {"weekly": {"days": ["thu"], "time": "19:35"}, "between": {"startDay": 45, "endDay": 90}}]}
            """)
        let beeps = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2017-04-20")!, timeZone: chicago,
            from: LocalDate("2017-04-01")!, through: LocalDate("2017-08-31")!)
        // Day 45 is 4 June and day 90 is 19 July: the Thursdays 8 June to 13 July.
        #expect(local(beeps, chicago) == [
            "2017-04-20T20:00:00-05:00", "2017-05-11T17:16:00-05:00",
            "2017-06-08T19:35:00-05:00", "2017-06-15T19:35:00-05:00", "2017-06-22T19:35:00-05:00",
            "2017-06-29T19:35:00-05:00", "2017-07-06T19:35:00-05:00", "2017-07-13T19:35:00-05:00",
        ])
    }

    @Test("Unbounded weekly rules stop at the requested range; absolute times outside it are left out")
    func requestedRange() throws {
        let rules = try document("""
            {"rules": [{"weekly": {"days": ["sun"], "time": "12:00"}}, {"absolute": "2017-05-26T21:15"}]}
            """)
        let beeps = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2017-04-20")!, timeZone: chicago,
            from: LocalDate("2017-05-20")!, through: LocalDate("2017-05-31")!)
        #expect(local(beeps, chicago) == [
            "2017-05-21T12:00:00-05:00", "2017-05-26T21:15:00-05:00", "2017-05-28T12:00:00-05:00",
        ])
        let none = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2017-04-20")!, timeZone: chicago,
            from: LocalDate("2017-05-29")!, through: LocalDate("2017-06-03")!)
        #expect(none.isEmpty)
    }

    @Test("A 02:30 rule on the spring-forward day beeps at 03:00; 01:30 on the fall-back day at its first occurrence")
    func daylightSaving() throws {
        let rules = try document("""
            {"rules": [{"absolute": "2026-03-08T02:30"}, {"absolute": "2026-11-01T01:30"}]}
            """)
        let beeps = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2026-01-01")!, timeZone: newYork,
            from: LocalDate("2026-01-01")!, through: LocalDate("2026-12-31")!)
        #expect(local(beeps, newYork) == ["2026-03-08T03:00:00-04:00", "2026-11-01T01:30:00-04:00"])
        #expect(beeps.map(TimestampText.utc) == ["2026-03-08T07:00:00Z", "2026-11-01T05:30:00Z"])
    }

    @Test("Rules combine as a union without duplicates")
    func unionWithoutDuplicates() throws {
        let rules = try document("""
            {"rules": [{"weekly": {"days": ["mon"], "time": "09:45"}},
                       {"absolute": "2017-05-08T09:45"},
                       {"relative": {"day": 18, "time": "09:45"}},
                       {"absolute": "2026-03-08T02:30"}, {"absolute": "2026-03-08T03:00"}]}
            """)
        // 8 May 2017 is a Monday and day 18 after 20 April; 02:30 and 03:00 on 8 March 2026 are one instant.
        let may = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2017-04-20")!, timeZone: newYork,
            from: LocalDate("2017-05-08")!, through: LocalDate("2017-05-08")!)
        #expect(may.count == 1)
        let march = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2017-04-20")!, timeZone: newYork,
            from: LocalDate("2026-03-08")!, through: LocalDate("2026-03-08")!)
        #expect(local(march, newYork) == ["2026-03-08T03:00:00-04:00"])
    }
}
