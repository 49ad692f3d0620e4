import Foundation
import Testing
@testable import MomentaryCore

@Suite("Survey documents: validation problems")
struct SurveyProblemsTests {
    /// A survey with one faulty question (number `number`, id `id`) and the words its problem must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let json: String
        let number: Int
        let id: String
        let fragments: [String]
        var testDescription: String { name }
    }

    private static func question(_ id: String, _ type: String, _ extra: String = "") -> String {
        #"{"question_id": "\#(id)", "question_type": "\#(type)", "question_text": "Text?"\#(extra.isEmpty ? "" : ", " + extra)}"#
    }

    private static func survey(_ questions: String...) -> String {
        #"{"content": [\#(questions.joined(separator: ", "))], "settings": {}, "survey_type": "tracking_survey"}"#
    }

    private static let yes = question("yes", "yes_no")
    private static let mood = question("mood", "slider", #""min": 0, "max": 10"#)
    private static let pick = question("pick", "radio_button", #""answers": [{"text": "A"}, {"text": "B"}]"#)

    static let cases: [Case] = [
        Case(name: "duplicate id", json: survey(yes, question("yes", "yes_no")), number: 2, id: "yes",
             fragments: ["already used by question 1"]),
        Case(name: "empty id", json: survey(question(" ", "yes_no")), number: 1, id: " ", fragments: ["question_id is empty"]),
        Case(name: "empty text",
             json: survey(#"{"question_id": "q", "question_type": "yes_no", "question_text": ""}"#),
             number: 1, id: "q", fragments: ["question_text is empty"]),
        Case(name: "info box without body",
             json: survey(#"{"question_id": "i", "question_type": "info_text_box", "question_text": "  "}"#),
             number: 1, id: "i", fragments: ["no body text"]),
        Case(name: "required info box", json: survey(question("i", "info_text_box", #""required": true"#)),
             number: 1, id: "i", fragments: ["cannot be required"]),
        Case(name: "slider min not below max", json: survey(question("s", "slider", #""min": 5, "max": 5"#)),
             number: 1, id: "s", fragments: ["min (5) must be less than max (5)"]),
        Case(name: "slider step zero", json: survey(question("s", "slider", #""min": 0, "max": 5, "step": 0"#)),
             number: 1, id: "s", fragments: ["step must be greater than 0"]),
        Case(name: "slider step not dividing", json: survey(question("s", "slider", #""min": 0, "max": 10, "step": 3"#)),
             number: 1, id: "s", fragments: ["does not divide", "0–10"]),
        Case(name: "slider single label", json: survey(question("s", "slider", #""min": 0, "max": 10, "labels": ["x"]"#)),
             number: 1, id: "s", fragments: ["at least 2 labels"]),
        Case(name: "number min above max", json: survey(question("n", "number", #""min": 9, "max": 1"#)),
             number: 1, id: "n", fragments: ["min (9) must not be greater than max (1)"]),
        Case(name: "number negative step", json: survey(question("n", "number", #""step": -1"#)),
             number: 1, id: "n", fragments: ["step must be greater than 0"]),
        Case(name: "choice without options", json: survey(question("c", "checkbox", #""answers": []"#)),
             number: 1, id: "c", fragments: ["no options"]),
        Case(name: "radio without answers key", json: survey(question("r", "radio_button")),
             number: 1, id: "r", fragments: ["no options"]),
        Case(name: "duplicate option text",
             json: survey(question("r", "radio_button", #""answers": [{"text": "A"}, {"text": "A"}]"#)),
             number: 1, id: "r", fragments: ["option 2 repeats the text “A” of option 1"]),
        Case(name: "option value clashing with another text",
             json: survey(question("p", "people", #""answers": [{"text": "Ann"}, {"text": "Anne", "value": "Ann"}]"#)),
             number: 1, id: "p", fragments: ["option 2", "same answer key “Ann”"]),
        Case(name: "empty option text", json: survey(question("r", "radio_button", #""answers": [{"text": ""}]"#)),
             number: 1, id: "r", fragments: ["option 1 has empty text"]),
        Case(name: "tokens with nothing to choose",
             json: survey(question("t", "tokens", #""suggested_tokens": [], "allows_free_entry": false"#)),
             number: 1, id: "t", fragments: ["offers no tokens"]),
        Case(name: "duplicate suggested token", json: survey(question("t", "tokens", #""suggested_tokens": ["a", "a"]"#)),
             number: 1, id: "t", fragments: ["“a” is listed more than once"]),
        Case(name: "token max count zero", json: survey(question("t", "tokens", #""max_count": 0"#)),
             number: 1, id: "t", fragments: ["max_count must be at least 1"]),
        Case(name: "audio limit zero", json: survey(question("a", "audio_recording", #""max_duration_seconds": 0"#)),
             number: 1, id: "a", fragments: ["max_duration_seconds must be greater than 0"]),
        Case(name: "reference to unknown question", json: survey(yes, question("q", "yes_no", #""display_if": {"==": ["nope", 1]}"#)),
             number: 2, id: "q", fragments: ["display_if", "unknown question “nope”"]),
        Case(name: "reference to itself", json: survey(question("q", "yes_no", #""display_if": {"==": ["q", 1]}"#)),
             number: 1, id: "q", fragments: ["display_if", "this question itself"]),
        Case(name: "reference to a later question",
             json: survey(question("q", "yes_no", #""display_if": {"==": ["yes", 1]}"#), yes),
             number: 1, id: "q", fragments: ["display_if", "question 2 (“yes”), which comes later"]),
        Case(name: "empty and", json: survey(yes, question("q", "yes_no", #""display_if": {"and": []}"#)),
             number: 2, id: "q", fragments: ["empty “and”"]),
        Case(name: "empty or inside not", json: survey(yes, question("q", "yes_no", #""display_if": {"not": {"or": []}}"#)),
             number: 2, id: "q", fragments: ["empty “or”"]),
        Case(name: "comparison with one item", json: survey(yes, question("q", "yes_no", #""display_if": {"<": ["yes"]}"#)),
             number: 2, id: "q", fragments: ["malformed", "exactly two items"]),
        Case(name: "comparison with three items",
             json: survey(mood, question("q", "yes_no", #""display_if": {">=": ["mood", 1, 2]}"#)),
             number: 2, id: "q", fragments: ["malformed", "exactly two items"]),
        Case(name: "unknown operator", json: survey(mood, question("q", "yes_no", #""display_if": {"=~": ["mood", 1]}"#)),
             number: 2, id: "q", fragments: ["unknown operator “=~”"]),
        Case(name: "text comparison value", json: survey(mood, question("q", "yes_no", #""display_if": {"==": ["mood", "3"]}"#)),
             number: 2, id: "q", fragments: ["with the text “3”", "only choices and suggested tokens can be named by their value"]),
        Case(name: "comparison value neither number nor text", json: survey(mood, question("q", "yes_no", #""display_if": {"==": ["mood", true]}"#)),
             number: 2, id: "q", fragments: ["must be a number, or an option's value as a string", "found true"]),
        Case(name: "question id not a string", json: survey(mood, question("q", "yes_no", #""display_if": {"==": [1, 3]}"#)),
             number: 2, id: "q", fragments: ["question id string"]),
        Case(name: "not with a list", json: survey(mood, question("q", "yes_no", #""display_if": {"not": [{"==": ["mood", 3]}]}"#)),
             number: 2, id: "q", fragments: ["“not” takes one condition"]),
        Case(name: "and with an object", json: survey(mood, question("q", "yes_no", #""display_if": {"and": {"==": ["mood", 3]}}"#)),
             number: 2, id: "q", fragments: ["“and” takes a list"]),
        Case(name: "node with two operators",
             json: survey(mood, question("q", "yes_no", #""display_if": {"==": ["mood", 3], "<": ["mood", 1]}"#)),
             number: 2, id: "q", fragments: ["exactly one operator key"]),
        Case(name: "node that is not an object", json: survey(mood, question("q", "yes_no", #""display_if": {"or": [true]}"#)),
             number: 2, id: "q", fragments: ["exactly one operator key", "true"]),
        Case(name: "comparison with a text question",
             json: survey(question("t", "free_response", #""text_field_type": "SINGLE_LINE_TEXT""#),
                          question("q", "yes_no", #""display_if": {"==": ["t", 3]}"#)),
             number: 2, id: "q", fragments: ["free_response", "always false"]),
        Case(name: "option position out of range", json: survey(pick, question("q", "yes_no", #""display_if": {"==": ["pick", 2]}"#)),
             number: 2, id: "q", fragments: ["2 options, numbered 0 to 1"]),
        Case(name: "yes/no compared with 2", json: survey(yes, question("q", "yes_no", #""display_if": {"!=": ["yes", 2]}"#)),
             number: 2, id: "q", fragments: ["1 (yes) or 0 (no)"]),
    ]

    @Test("Each problem names the question by position and id", arguments: cases)
    func problemNamesTheQuestion(_ testCase: Case) throws {
        let problems = try SurveyFixtures.survey(testCase.json).problems()
        #expect(problems.count == 1, "\(problems)")
        let problem = try #require(problems.first)
        #expect(problem.questionNumber == testCase.number)
        #expect(problem.message.hasPrefix("Question \(testCase.number) "), "\(problem.message)")
        if !testCase.id.trimmingCharacters(in: .whitespaces).isEmpty {
            #expect(problem.questionID == testCase.id)
            #expect(problem.message.contains("“\(testCase.id)”"), "\(problem.message)")
        } else {
            #expect(problem.questionID == nil)
            #expect(problem.message.contains("without question_id"))
        }
        for fragment in testCase.fragments {
            #expect(problem.message.contains(fragment), "“\(problem.message)” lacks “\(fragment)”")
        }
    }

    @Test("All problems are listed, not only the first")
    func allProblemsListed() throws {
        let document = try SurveyFixtures.survey(Self.survey(
            Self.question("s", "slider", #""min": 9, "max": 1, "step": 0"#),
            Self.question("s", "radio_button", #""answers": []"#),
            Self.question("q", "yes_no", #""display_if": {"and": [{"==": ["later", 1]}, {"<": ["s"]}]}"#),
            Self.question("later", "yes_no")))
        let problems = document.problems()
        #expect(problems.map(\.questionNumber) == [1, 1, 2, 2, 3, 3])
    }

    @Test("Problems of the whole survey have no question number")
    func surveyWideProblems() throws {
        #expect(try SurveyFixtures.survey(#"{"content": []}"#).problems().map(\.message) == ["The survey has no questions."])
        let timings = try SurveyFixtures.survey(Self.survey(Self.yes).dropLast() + #", "timings": [[90000, 60, 60]]}"#)
        let messages = timings.problems().map(\.message)
        #expect(timings.problems().allSatisfy { $0.questionNumber == nil })
        #expect(messages.contains { $0.contains("7 lists") })
        #expect(messages.contains { $0.contains("Sunday: 90000") })
        #expect(messages.contains { $0.contains("Sunday lists the same time more than once") })
    }

    @Test("Well-formed documents have no problems", arguments: [
        SurveyFixtures.allKinds, SampleSurveys.registration, SampleSurveys.experienceSampling,
    ])
    func wellFormedDocumentsAreClean(document: SurveyDocument) {
        #expect(document.problems() == [])
    }
}
