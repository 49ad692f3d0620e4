import Foundation
import Testing
@testable import MomentaryCore

@Suite("Fixed schedules: every N days")
struct FixedScheduleEveryDaysTests {
    let newYork = TimeZone(identifier: "America/New_York")!
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    func document(_ rules: String...) throws -> FixedScheduleDocument {
        try FixedScheduleDocument.parse(Data(#"{"rules": [\#(rules.joined(separator: ", "))]}"#.utf8))
    }

    /// The local dates of the beeps between two dates, for a participant registered on `registered`.
    func dates(_ document: FixedScheduleDocument, registered: String, from: String, through: String,
               in zone: TimeZone? = nil) -> [String] {
        let zone = zone ?? berlin
        return FixedSchedule.beeps(
            document, registeredOn: LocalDate(registered)!, timeZone: zone,
            from: LocalDate(from)!, through: LocalDate(through)!
        ).map { String(TimestampText.local($0, in: zone).prefix(10)) }
    }

    @Test("Every 3 days from registration: the registration date, then every third day, within the asked range only")
    func fromRegistration() throws {
        let rules = try document(#"{"every_days": 3, "time": "19:00", "from": "registration"}"#)
        let january = dates(rules, registered: "2027-01-04", from: "2027-01-01", through: "2027-01-31")
        #expect(january.count == 10)
        #expect(january.first == "2027-01-04")
        #expect(january.last == "2027-01-31")
        // A range that starts mid-cycle keeps the cycle: 4 January + 3 and + 6.
        #expect(dates(rules, registered: "2027-01-04", from: "2027-01-05", through: "2027-01-12")
            == ["2027-01-07", "2027-01-10"])
        #expect(dates(rules, registered: "2027-01-04", from: "2026-12-01", through: "2027-01-03").isEmpty)
        #expect(dates(rules, registered: "2027-01-04", from: "2027-01-08", through: "2027-01-09").isEmpty)
    }

    @Test("From a date, every participant shares one cycle; from registration, each has their own")
    func fromDateVersusRegistration() throws {
        let shared = try document(#"{"every_days": 7, "time": "19:00", "from": "2027-01-04"}"#)
        let own = try document(#"{"every_days": 7, "time": "19:00", "from": "registration"}"#)
        // Registered on Wednesday 20 January: the shared cycle stays on Mondays (4 January + 21 days).
        #expect(dates(shared, registered: "2027-01-20", from: "2027-01-20", through: "2027-02-08")
            == ["2027-01-25", "2027-02-01", "2027-02-08"])
        #expect(dates(own, registered: "2027-01-20", from: "2027-01-20", through: "2027-02-08")
            == ["2027-01-20", "2027-01-27", "2027-02-03"])
        // Nothing before the start date, however early the range asked for.
        #expect(dates(shared, registered: "2026-12-01", from: "2026-12-01", through: "2027-01-04") == ["2027-01-04"])
    }

    @Test("Every day and every 366 days (across a leap day)")
    func extremes() throws {
        let daily = try document(#"{"every_days": 1, "time": "08:00", "from": "2028-02-27"}"#)
        #expect(dates(daily, registered: "2028-02-01", from: "2028-02-01", through: "2028-03-01")
            == ["2028-02-27", "2028-02-28", "2028-02-29", "2028-03-01"])
        let yearly = try document(#"{"every_days": 366, "time": "08:00", "from": "registration"}"#)
        #expect(dates(yearly, registered: "2028-01-10", from: "2028-01-01", through: "2030-12-31")
            == ["2028-01-10", "2029-01-10", "2030-01-11"])
    }

    @Test("“between” limits the rule but does not restart its cycle")
    func between() throws {
        // Day 0 is 4 January: days 8, 10 and 12 lie within days 7 to 13.
        let byDays = try document(
            #"{"every_days": 2, "time": "19:00", "from": "registration", "between": {"startDay": 7, "endDay": 13}}"#)
        #expect(dates(byDays, registered: "2027-01-04", from: "2027-01-01", through: "2027-02-28")
            == ["2027-01-12", "2027-01-14", "2027-01-16"])
        let byDates = try document(
            #"{"every_days": 10, "time": "19:00", "from": "2027-01-01", "between": {"start": "2027-01-15", "end": "2027-02-15"}}"#)
        #expect(dates(byDates, registered: "2027-01-01", from: "2027-01-01", through: "2027-12-31")
            == ["2027-01-21", "2027-01-31", "2027-02-10"])
    }

    @Test("Across both daylight-saving changes a daily rule beeps once a day: 02:30 moves to 03:00, 01:30 takes its first occurrence")
    func daylightSaving() throws {
        let rules = try document(
            #"{"every_days": 1, "time": "02:30", "from": "registration"}"#,
            #"{"every_days": 1, "time": "01:30", "from": "registration"}"#)
        let spring = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2026-03-01")!, timeZone: newYork,
            from: LocalDate("2026-03-07")!, through: LocalDate("2026-03-09")!)
        #expect(spring.map { TimestampText.local($0, in: newYork) } == [
            "2026-03-07T01:30:00-05:00", "2026-03-07T02:30:00-05:00",
            "2026-03-08T01:30:00-05:00", "2026-03-08T03:00:00-04:00",
            "2026-03-09T01:30:00-04:00", "2026-03-09T02:30:00-04:00",
        ])
        let autumn = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2026-10-01")!, timeZone: newYork,
            from: LocalDate("2026-10-31")!, through: LocalDate("2026-11-02")!)
        #expect(autumn.map(TimestampText.utc) == [
            "2026-10-31T05:30:00Z", "2026-10-31T06:30:00Z",
            "2026-11-01T05:30:00Z", "2026-11-01T07:30:00Z",
            "2026-11-02T06:30:00Z", "2026-11-02T07:30:00Z",
        ])
    }

    @Test("The JSON shape decodes to the rule and encodes back the same")
    func roundTrip() throws {
        let rules = try document(
            #"{"every_days": 3, "time": "19:00", "from": "registration"}"#,
            #"{"every_days": 14, "time": "08:30", "from": "2027-01-04", "between": {"start": "2027-01-04", "end": "2027-06-30"}}"#,
            #"{"every_days": 2, "time": "12:00", "from": "registration", "between": {"startDay": 7, "endDay": 13}}"#)
        #expect(rules.rules == [
            .everyDays(.init(interval: 3, time: TimeOfDay("19:00")!, from: .registration)),
            .everyDays(.init(
                interval: 14, time: TimeOfDay("08:30")!, from: .date(LocalDate("2027-01-04")!),
                between: .dates(start: LocalDate("2027-01-04")!, end: LocalDate("2027-06-30")!))),
            .everyDays(.init(
                interval: 2, time: TimeOfDay("12:00")!, from: .registration,
                between: .registrationDays(start: 7, end: 13))),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(rules), as: UTF8.self)
        #expect(json == #"{"rules":["#
            + #"{"every_days":3,"from":"registration","time":"19:00"},"#
            + #"{"between":{"end":"2027-06-30","start":"2027-01-04"},"every_days":14,"from":"2027-01-04","time":"08:30"},"#
            + #"{"between":{"endDay":13,"startDay":7},"every_days":2,"from":"registration","time":"12:00"}]}"#)
        #expect(try FixedScheduleDocument.parse(Data(json.utf8)) == rules)
    }
}
