import Foundation
import Testing
@testable import MomentaryCore

@Suite("Fixed schedule documents")
struct FixedScheduleDocumentTests {
    static let example = """
        {"rules": [
          {"weekly": {"days": ["mon","wed","fri"], "time": "09:45"}, "between": {"start": "2017-05-05", "end": "2017-05-15"}},
          {"weekly": {"days": ["thu"], "time": "19:35"}, "between": {"startDay": 45, "endDay": 90}},
          {"absolute": "2017-05-26T21:15"},
          {"relative": {"day": 21, "time": "17:16"}},
          {"weekly": {"days": ["sun"], "time": "08:00"}}
        ]}
        """

    func error(_ json: String) -> FixedScheduleError? {
        do {
            _ = try FixedScheduleDocument.parse(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("The documented shape decodes, and encodes back to the same document")
    func roundTrip() throws {
        let document = try FixedScheduleDocument.parse(Data(Self.example.utf8))
        #expect(document.rules.count == 5)
        #expect(document.rules[1] == .weekly(.init(
            days: [.thu], time: TimeOfDay("19:35")!, between: .registrationDays(start: 45, end: 90))))
        #expect(document.rules[2] == .absolute(LocalDateTime("2017-05-26T21:15")!))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(document), as: UTF8.self)
        #expect(json.contains(#"{"between":{"endDay":90,"startDay":45},"weekly":{"days":["thu"],"time":"19:35"}}"#))
        #expect(json.contains(#"{"absolute":"2017-05-26T21:15"}"#))
        #expect(json.contains(#"{"weekly":{"days":["sun"],"time":"08:00"}}"#))
        #expect(try FixedScheduleDocument.parse(Data(json.utf8)) == document)
    }

    @Test("Invalid rules are rejected with a message naming the rule and the problem", arguments: [
        (#"{"weekly": {"days": ["thurs"], "time": "09:45"}}"#, "unknown day name “thurs”"),
        (#"{"weekly": {"days": [], "time": "09:45"}}"#, "“weekly.days” is empty"),
        (#"{"weekly": {"days": ["mon", "mon"], "time": "09:45"}}"#, "lists “mon” twice"),
        (#"{"weekly": {"days": ["mon"], "time": "9:45"}}"#, "“weekly.time” “9:45” is not a time in HH:MM form"),
        (#"{"weekly": {"days": ["mon"], "time": "24:00"}}"#, "is not a time"),
        (#"{"weekly": {"days": ["mon"]}}"#, "“weekly” is missing “time”"),
        (#"{"weekly": {"days": "mon", "time": "09:45"}}"#, "“weekly.days” must be a list of strings"),
        (#"{"weekly": {"days": ["mon"], "time": "09:45"}, "between": {"start": "2017-05-15", "end": "2017-05-05"}}"#,
         "ends (2017-05-05) before it starts (2017-05-15)"),
        (#"{"weekly": {"days": ["mon"], "time": "09:45"}, "between": {"start": "2017-02-30", "end": "2017-05-05"}}"#,
         "“between.start” “2017-02-30” is not a date"),
        (#"{"weekly": {"days": ["mon"], "time": "09:45"}, "between": {"startDay": 9, "endDay": 3}}"#,
         "ends (day 3) before it starts (day 9)"),
        (#"{"weekly": {"days": ["mon"], "time": "09:45"}, "between": {"startDay": -1, "endDay": 3}}"#,
         "“between.startDay” is -1"),
        (#"{"weekly": {"days": ["mon"], "time": "09:45"}, "between": {"start": "2017-05-05", "endDay": 3}}"#,
         "not both"),
        (#"{"weekly": {"days": ["mon"], "time": "09:45"}, "between": {"start": "2017-05-05"}}"#,
         "“between” is missing “end”"),
        (#"{"absolute": "2017-05-26 21:15"}"#, "not a local date and time in YYYY-MM-DDTHH:MM form"),
        (#"{"absolute": "2017-05-26T21:15", "between": {"startDay": 1, "endDay": 2}}"#,
         "“between” only applies to weekly and every_days rules"),
        (#"{"weekly": {"days": ["mon"]}, "time": "09:45"}"#, "“time” only applies to every_days rules"),
        (#"{"relative": {"day": 3, "time": "09:45"}, "from": "registration"}"#, "“from” only applies to every_days rules"),
        (#"{"every_days": 0, "time": "19:00", "from": "registration"}"#,
         "“every_days” is 0; give a number of days from 1 (daily) to 366"),
        (#"{"every_days": 367, "time": "19:00", "from": "registration"}"#, "“every_days” is 367"),
        (#"{"every_days": "3", "time": "19:00", "from": "registration"}"#, "“every_days” must be a whole number"),
        (#"{"every_days": 3, "from": "registration"}"#, "the rule is missing “time”"),
        (#"{"every_days": 3, "time": "7pm", "from": "registration"}"#, "“time” “7pm” is not a time in HH:MM form"),
        (#"{"every_days": 3, "time": "19:00"}"#, "the rule is missing “from”"),
        (#"{"every_days": 3, "time": "19:00", "from": "joining"}"#,
         "“from” “joining” is neither “registration” nor a date in YYYY-MM-DD form"),
        (#"{"every_days": 3, "time": "19:00", "from": "2027-02-29"}"#, "“from” “2027-02-29” is neither"),
        (#"{"every_days": 3, "time": "19:00", "from": "2027-03-01", "between": {"start": "2027-01-01", "end": "2027-02-28"}}"#,
         "“from” (2027-03-01) is after “between” ends (2027-02-28), so the rule never beeps"),
        (#"{"every_days": 3, "time": "19:00", "from": "registration", "between": {"startDay": 5}}"#,
         "“between” is missing “endDay”"),
        (#"{"every_days": 3, "time": "19:00", "from": "registration", "start": "2027-01-04"}"#,
         "unknown field “start”"),
        (#"{"every_days": 3, "weekly": {"days": ["mon"], "time": "09:45"}, "time": "19:00", "from": "registration"}"#,
         "has “weekly” and “every_days”; give exactly one kind per rule"),
        (#"{"relative": {"day": -3, "time": "17:16"}}"#, "“relative.day” is -3"),
        (#"{"relative": {"day": 2.5, "time": "17:16"}}"#, "“relative.day” must be a whole number"),
        (#"{}"#, "has none of “weekly”, “absolute”, “relative”, “every_days”"),
        (#"{"absolute": "2017-05-26T21:15", "relative": {"day": 1, "time": "17:16"}}"#,
         "has “absolute” and “relative”; give exactly one kind per rule"),
        (#"{"weekley": {"days": ["mon"], "time": "09:45"}}"#, "unknown field “weekley”"),
        (#""mondays""#, "must be a JSON object"),
    ])
    func invalidRule(rule: String, expected: String) throws {
        let json = #"{"rules": [{"absolute": "2017-05-26T21:15"}, \#(rule)]}"#
        let failure = try #require(error(json))
        #expect(failure.rule == 2)
        #expect(failure.description.hasPrefix("rule 2: "))
        #expect(failure.description.contains(expected), "\(failure)")
    }

    @Test("Problems with the document itself are reported without a rule number")
    func invalidDocument() throws {
        #expect(try #require(error("{")).description == "the schedule is not valid JSON")
        #expect(try #require(error("{}")).description.contains("missing “rules”"))
        #expect(try #require(error(#"{"rules": {}}"#)).description.contains("“rules” must be a list"))
        #expect(try #require(error(#"{"rules": [], "timezone": "UTC"}"#)).description.contains("unknown field “timezone”"))
        #expect(error(#"{"rules": []}"#) == nil)
    }

    @Test("A schedule may set its own answer window, 1 to 1440 minutes, kept on a round trip")
    func ownAnswerWindow() throws {
        let document = try FixedScheduleDocument.parse(Data(#"{"rules": [{"absolute": "2027-05-01T17:16"}], "answer_window_minutes": 45}"#.utf8))
        #expect(document.answerWindowMinutes == 45)
        #expect(try FixedScheduleDocument.parse(JSONEncoder().encode(document)) == document)
        #expect(try FixedScheduleDocument.parse(Data(#"{"rules": []}"#.utf8)).answerWindowMinutes == nil)
        #expect(try #require(error(#"{"rules": [], "answer_window_minutes": 0}"#)).description.contains("must be 1 to 1440 minutes, not 0"))
        #expect(try #require(error(#"{"rules": [], "answer_window_minutes": "soon"}"#)).description.contains("answer_window_minutes"))
    }
}
