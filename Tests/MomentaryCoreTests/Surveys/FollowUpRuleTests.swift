import Foundation
import Testing
@testable import MomentaryCore

@Suite("Follow-up rules (follow_ups)")
struct FollowUpRuleTests {
    /// A survey with a slider "stress" (1–5) and a yes/no "alone", and the given `follow_ups`.
    private func survey(followUps: String) throws -> SurveyDocument {
        try SurveyDocument(jsonData: Data("""
            {"content": [
              {"question_id": "stress", "question_type": "slider", "question_text": "Stress?", "min": 1, "max": 5},
              {"question_id": "alone", "question_type": "yes_no", "question_text": "Alone?"}
            ], "follow_ups": \(followUps)}
            """.utf8))
    }

    private func messages(_ document: SurveyDocument) -> [String] {
        document.problems().map(\.message)
    }

    @Test("A full rule is read, kept as written and has no problems")
    func readsRule() throws {
        let document = try survey(followUps: """
            [{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": 30, "answer_window_minutes": 20, "respect_hours": false},
             {"when": {"==": ["alone", 1]}, "survey": "Company", "after_minutes": 0}]
            """)
        #expect(messages(document).isEmpty)
        #expect(document.followUpRules == [
            FollowUpRule(when: .compare(questionID: "stress", .greaterThanOrEqual, 4), survey: "Coping", afterMinutes: 30,
                         answerWindowMinutes: 20, respectHours: false),
            FollowUpRule(when: .compare(questionID: "alone", .equal, 1), survey: "Company", afterMinutes: 0),
        ])
        // The rules stay in the document exactly as written.
        let again = try SurveyDocument(json: document.keptJSON)
        #expect(again.extraFields["follow_ups"] == document.extraFields["follow_ups"])
    }

    @Test("when means what display_if means: rules met by the answers, with their positions")
    func evaluatesLikeDisplayIf() throws {
        let document = try survey(followUps: """
            [{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": 30},
             {"when": {"and": [{"==": ["alone", 1]}, {">": ["stress", 2]}]}, "survey": "Company", "after_minutes": 0}]
            """)
        #expect(document.followUps(meeting: ["stress": .number(4), "alone": .bool(false)]).map(\.index) == [0])
        #expect(document.followUps(meeting: ["stress": .number(3), "alone": .bool(true)]).map(\.index) == [1])
        #expect(document.followUps(meeting: ["stress": .number(5), "alone": .bool(true)]).map(\.index) == [0, 1])
        #expect(document.followUps(meeting: ["stress": .number(3)]).isEmpty)
        // A skipped question meets no comparison, as in display_if.
        #expect(document.followUps(meeting: [:]).isEmpty)
    }

    @Test("Each mistake in a rule is reported by name", arguments: [
        (#"{"survey": "Coping", "after_minutes": 5}"#, "“when” is missing"),
        (#"{"when": {">=": ["mood", 4]}, "survey": "Coping", "after_minutes": 5}"#, "“when” refers to unknown question “mood”"),
        (#"{"when": {"~": ["stress", 4]}, "survey": "Coping", "after_minutes": 5}"#, "unknown operator “~”"),
        (#"{"when": {">=": ["stress", 4]}, "after_minutes": 5}"#, "“survey” must name the follow-up survey"),
        (#"{"when": {">=": ["stress", 4]}, "survey": " ", "after_minutes": 5}"#, "“survey” must name the follow-up survey"),
        (#"{"when": {">=": ["stress", 4]}, "survey": "Coping"}"#, "“after_minutes” is missing"),
        (#"{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": 2.5}"#, "“after_minutes” must be a whole number of minutes from 0 to 10080"),
        (#"{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": -1}"#, "“after_minutes” must be"),
        (#"{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": 10081}"#, "“after_minutes” must be"),
        (#"{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": "5"}"#, "“after_minutes” must be"),
        (#"{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": 5, "answer_window_minutes": 0}"#, "“answer_window_minutes” must be a whole number of minutes from 1 to 1440"),
        (#"{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": 5, "respect_hours": "no"}"#, "“respect_hours” must be true or false"),
        (#"{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minute": 5}"#, "“after_minute” is not a field; perhaps “after_minutes” was meant"),
        (#"{"when": {">=": ["stress", 4]}, "survey": "Coping", "after_minutes": 5, "delay": 3}"#, "“delay” is not a field of a follow-up"),
        (#""Coping""#, "must be an object"),
    ])
    func reportsMistakes(rule: String, expected: String) throws {
        let document = try survey(followUps: "[\(rule)]")
        let found = messages(document)
        #expect(found.contains { $0.hasPrefix("Follow-up 1 in “follow_ups”:") && $0.contains(expected) }, "\(found)")
        // A rule with a problem is never used.
        #expect(document.followUpRules == [nil])
        #expect(document.followUps(meeting: ["stress": .number(5)]).isEmpty)
    }

    @Test("follow_ups must be a list, and its near-misses are named")
    func wholeField() throws {
        let notAList = try survey(followUps: #"{"survey": "Coping"}"#)
        #expect(messages(notAList).contains { $0.hasPrefix("“follow_ups” must be a list of rules") })
        let misspelt = try SurveyDocument(jsonData: Data("""
            {"content": [{"question_id": "stress", "question_type": "slider", "question_text": "Stress?", "min": 1, "max": 5}],
             "follow_up": []}
            """.utf8))
        #expect(messages(misspelt).contains { $0.contains("“follow_up” is not a field; perhaps “follow_ups” was meant") })
        // The known field itself is never reported as a near-miss of itself.
        #expect(messages(try survey(followUps: "[]")).isEmpty)
    }
}
