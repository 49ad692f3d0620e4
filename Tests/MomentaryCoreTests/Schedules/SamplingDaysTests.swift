import Foundation
import Testing
@testable import MomentaryCore

@Suite("Sampling days (measurement bursts)")
struct SamplingDaysTests {
    /// Days 1–7, 91–97 and 181–187, listed out of order as a researcher might.
    let bursts = SamplingDays([.init(fromDay: 181, toDay: 187), .init(fromDay: 1, toDay: 7), .init(fromDay: 91, toDay: 97)])
    let registered = LocalDate("2027-01-04")!

    func date(_ text: String) -> LocalDate { LocalDate(text)! }

    func decode(_ json: String) throws -> SamplingDays {
        try JSONDecoder().decode(SamplingDays.self, from: Data(json.utf8))
    }

    @Test("Day 1 is the registration date itself; the day before registration is day 0 and never sampled")
    func dayOne() {
        #expect(SamplingDays.dayNumber(of: registered, registeredOn: registered) == 1)
        #expect(SamplingDays.dayNumber(of: date("2027-01-03"), registeredOn: registered) == 0)
        #expect(SamplingDays.dayNumber(of: date("2027-04-04"), registeredOn: registered) == 91)
        let firstDayOnly = SamplingDays([.init(fromDay: 1, toDay: 1)])
        #expect(firstDayOnly.includes(registered, registeredOn: registered))
        #expect(!firstDayOnly.includes(date("2027-01-05"), registeredOn: registered))
        #expect(!firstDayOnly.includes(date("2027-01-03"), registeredOn: registered))
    }

    @Test("Each burst includes its first and last day and nothing either side", arguments: [
        ("2027-01-04", true), ("2027-01-10", true), ("2027-01-11", false),  // days 1, 7, 8
        ("2027-04-03", false), ("2027-04-04", true), ("2027-04-10", true), ("2027-04-11", false),  // days 90, 91, 97, 98
        ("2027-07-03", true), ("2027-07-09", true), ("2027-07-10", false), ("2030-01-01", false),  // days 181, 187, 188
        ("2026-12-31", false),
    ])
    func includes(day: String, sampled: Bool) {
        #expect(bursts.includes(date(day), registeredOn: registered) == sampled)
    }

    @Test("The next sampled day is the date itself within a burst, the next burst's first day between bursts, nil after the last")
    func firstSampledDay() {
        func next(_ day: String) -> String? {
            bursts.firstSampledDay(onOrAfter: date(day), registeredOn: registered)?.description
        }
        #expect(next("2026-12-20") == "2027-01-04")
        #expect(next("2027-01-04") == "2027-01-04")
        #expect(next("2027-01-10") == "2027-01-10")
        #expect(next("2027-01-11") == "2027-04-04")
        #expect(next("2027-04-07") == "2027-04-07")
        #expect(next("2027-04-11") == "2027-07-03")
        #expect(next("2027-07-09") == "2027-07-09")
        #expect(next("2027-07-10") == nil)
        // A first range from day 3 begins two days after the registration date.
        let fromDayThree = SamplingDays([.init(fromDay: 3, toDay: 5)])
        #expect(fromDayThree.firstSampledDay(onOrAfter: registered, registeredOn: registered) == date("2027-01-06"))
    }

    @Test("Usable ranges have no problems; adjacent ranges do not overlap")
    func usable() {
        #expect(bursts.problems().isEmpty)
        #expect(SamplingDays([.init(fromDay: 1, toDay: 7), .init(fromDay: 8, toDay: 14)]).problems().isEmpty)
        #expect(SamplingDays([.init(fromDay: 3660, toDay: 3660)]).problems().isEmpty)
        let hundred = (0..<100).map { SamplingDays.DayRange(fromDay: $0 * 10 + 1, toDay: $0 * 10 + 5) }
        #expect(SamplingDays(hundred).problems().isEmpty)
        #expect(bursts.problems(studyEnd: StudyEnd(daysAfterRegistration: 181)).isEmpty)
    }

    @Test("Unusable ranges are refused with a sentence naming sampling_days", arguments: [
        ([], #"sampling_days is empty; leave it out to sample every day, or list ranges such as {"from_day": 1, "to_day": 7}"#),
        ([(0, 7)], "sampling_days: days 0 to 7 must lie within day 1 (the registration day) and day 3660"),
        ([(3650, 3661)], "sampling_days: days 3650 to 3661 must lie within day 1 (the registration day) and day 3660"),
        ([(9, 3)], "sampling_days: from_day 9 is after to_day 3"),
        ([(1, 7), (5, 10)], "sampling_days: days 1 to 7 and days 5 to 10 overlap; list each day in one range only"),
        ([(1, 7), (7, 7)], "sampling_days: days 1 to 7 and days 7 to 7 overlap; list each day in one range only"),
        // Not next to each other once sorted, and still found.
        ([(10, 20), (1, 100), (50, 60)], "sampling_days: days 1 to 100 and days 50 to 60 overlap; list each day in one range only"),
    ] as [([(Int, Int)], String)])
    func refused(ranges: [(Int, Int)], expected: String) {
        let problems = SamplingDays(ranges.map { .init(fromDay: $0.0, toDay: $0.1) }).problems()
        #expect(problems.contains(expected), "\(problems)")
    }

    @Test("More than 100 ranges, and ranges that start after ends_after_days, are refused")
    func limits() {
        let many = (0..<101).map { SamplingDays.DayRange(fromDay: $0 * 10 + 1, toDay: $0 * 10 + 5) }
        #expect(SamplingDays(many).problems() == ["sampling_days lists 101 ranges; at most 100 are allowed"])
        #expect(bursts.problems(studyEnd: StudyEnd(daysAfterRegistration: 100)) == [
            "sampling_days: days 181 to 187 start after the study ends on day 100 (ends_after_days), so they would never be sampled",
        ])
    }

    @Test("The study document's list decodes in any order, equals the sorted list and encodes sorted")
    func json() throws {
        let listed = try decode(#"[{"from_day": 181, "to_day": 187}, {"to_day": 7, "from_day": 1}, {"from_day": 91, "to_day": 97}]"#)
        #expect(listed == bursts)
        #expect(listed.ranges.map(\.fromDay) == [1, 91, 181])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(listed), as: UTF8.self)
        #expect(json == #"[{"from_day":1,"to_day":7},{"from_day":91,"to_day":97},{"from_day":181,"to_day":187}]"#)
        #expect(try decode(json) == listed)
        // Decoding reads the shape; the values are judged by problems().
        #expect(try decode("[]").problems().count == 1)
    }

    @Test("A misspelt, missing or non-number field is refused, naming it")
    func jsonRefusals() throws {
        do {
            _ = try decode(#"[{"from_day": 1, "to_day": 7}, {"from_day": 91, "until_day": 97}]"#)
            Issue.record("an unknown field should be refused")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.last?.stringValue == "until_day")
            #expect(context.debugDescription == "a range of sampling_days has only “from_day” and “to_day”, not “until_day”")
        }
        do {
            _ = try decode(#"[{"from_day": 1}]"#)
            Issue.record("a missing to_day should be refused")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "to_day")
        }
        #expect(throws: DecodingError.self) { try decode(#"[{"from_day": 1.5, "to_day": 7}]"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"from_day": 1, "to_day": 7}"#) }
    }
}
