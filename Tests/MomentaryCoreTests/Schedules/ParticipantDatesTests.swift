import Foundation
import Testing
@testable import MomentaryCore

@Suite("Participant dates and rules that count from them")
struct ParticipantDatesTests {
    let newYork = TimeZone(identifier: "America/New_York")!

    func document(_ json: String) throws -> FixedScheduleDocument {
        try FixedScheduleDocument.parse(Data(json.utf8))
    }

    @Test("a rule counts days before and after the participant's named date, at the wall-clock time, across a DST change")
    func countsFromTheNamedDate() throws {
        let rules = try document("""
            {"rules": [{"relative": {"to": "Surgery", "day": -1, "time": "09:00"}},
                       {"relative": {"to": "Surgery", "day": 7, "time": "09:00"}},
                       {"relative": {"day": 1, "time": "12:00"}}]}
            """)
        // Surgery on Saturday 2025-03-08; the clocks go forward on the 9th, so day 7 is in EDT.
        let beeps = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2025-03-01")!, dates: ["Surgery": LocalDate("2025-03-08")!], timeZone: newYork,
            from: LocalDate("2025-03-01")!, through: LocalDate("2025-03-31")!)
        #expect(beeps.map { TimestampText.local($0, in: newYork) } == [
            "2025-03-02T12:00:00-05:00", "2025-03-07T09:00:00-05:00", "2025-03-15T09:00:00-04:00",
        ])
    }

    @Test("a rule whose date the participant has not got plans nothing; the others still do")
    func unsetDatePlansNothing() throws {
        let rules = try document(#"{"rules": [{"relative": {"to": "Baseline", "day": 0, "time": "10:00"}}, {"relative": {"day": 0, "time": "11:00"}}]}"#)
        let beeps = FixedSchedule.beeps(
            rules, registeredOn: LocalDate("2025-06-01")!, dates: ["Other": LocalDate("2025-06-01")!], timeZone: newYork,
            from: LocalDate("2025-06-01")!, through: LocalDate("2025-06-30")!)
        #expect(beeps.map { TimestampText.local($0, in: newYork) } == ["2025-06-01T11:00:00-04:00"])
    }

    @Test("`to` round-trips; negative days need a date to count from; bad names are refused with the field")
    func parsing() throws {
        let text = #"{"rules":[{"relative":{"day":-2,"time":"08:30","to":"Baseline"}}]}"#
        let rules = try document(text)
        #expect(rules.rules == [.relative(day: -2, time: TimeOfDay("08:30")!, to: "Baseline")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(rules), as: UTF8.self) == text)

        #expect(throws: FixedScheduleError.self) { try document(#"{"rules": [{"relative": {"day": -1, "time": "08:30"}}]}"#) }
        for bad in [#""""#, #"" Baseline""#, #""a\nb""#, "\"\(String(repeating: "x", count: 61))\"", "3"] {
            #expect(throws: FixedScheduleError.self, "\(bad)") {
                try document(#"{"rules": [{"relative": {"to": \#(bad), "day": 1, "time": "08:30"}}]}"#)
            }
        }
        #expect(throws: FixedScheduleError.self) { try document(#"{"rules": [{"relative": {"to": "A", "day": 4000, "time": "08:30"}}]}"#) }
    }

    @Test("a study's names: each once (case aside), well formed, at most twenty; schedules may only count from them")
    func names() throws {
        #expect(ParticipantDates.problems(["Baseline", "Surgery"]).isEmpty)
        #expect(ParticipantDates.problems(["Baseline", "baseline"]) == ["the participant date “baseline” is named twice"])
        #expect(ParticipantDates.problems((1...21).map { "D\($0)" }).count == 1)
        let rules = try document(#"{"rules": [{"relative": {"to": "Surgery", "day": 1, "time": "08:30"}}, {"relative": {"to": "Baseline", "day": 1, "time": "08:30"}}]}"#)
        #expect(ParticipantDates.unknownNames(in: rules, names: ["Baseline"]) == ["Surgery"])
        #expect(ParticipantDates.scheduleProblems(rules, names: []).count == 2)
    }

    @Test("stored dates read back; text that is not such an object reads as none")
    func storage() {
        let dates = ["Surgery": LocalDate("2025-03-08")!, "Baseline": LocalDate("2025-01-02")!]
        let text = ParticipantDates.encode(dates)
        #expect(text == #"{"Baseline":"2025-01-02","Surgery":"2025-03-08"}"#)
        #expect(ParticipantDates.decode(text) == dates)
        #expect(ParticipantDates.encode([:]) == nil)
        #expect(ParticipantDates.decode("[1, 2]").isEmpty)
        #expect(ParticipantDates.decode(#"{"A": "not a date", "B": "2025-01-01"}"#) == ["B": LocalDate("2025-01-01")!])
    }
}
