import Foundation
import Testing
@testable import MomentaryCore

/// What `problems()` says about scores, piped texts and randomised groups. What they compute is
/// in Tests/Shared/survey-cases.json (run in Swift and in JavaScript).
@Suite("Survey documents: scores, piping and random order are checked when saved")
struct SurveyLogicProblemsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// Extra top-level fields and questions' JSON.
        let extra: String
        let questions: [String]
        /// Words the problems must contain; empty: the survey has none.
        let fragments: [String]
        var testDescription: String { name }
    }

    private static func slider(_ id: String, _ text: String = "Text?", _ more: String = "") -> String {
        #"{"question_id": "\#(id)", "question_type": "slider", "question_text": "\#(text)", "min": 1, "max": 5\#(more)}"#
    }

    private static let standard = [
        slider("pa1"), slider("pa2"),
        #"{"question_id": "who", "question_type": "radio_button", "question_text": "Who?", "answers": [{"text": "Partner", "value": "partner"}, {"text": "Alone"}]}"#,
        #"{"question_id": "note", "question_type": "free_response", "question_text": "Note?"}"#,
        #"{"question_id": "num", "question_type": "number", "question_text": "How many?"}"#,
        #"{"question_id": "ok", "question_type": "yes_no", "question_text": "OK?"}"#,
    ]

    static let cases: [Case] = [
        Case(name: "a good set of scores", extra: #""scores": [{"id": "pa_mean", "mean": ["pa1", "pa2"], "min_answered": 1, "reverse": ["pa2"], "label": "Positive affect"}, {"id": "n", "count": ["pa1", "who", "ok"]}]"#,
             questions: standard, fragments: []),
        Case(name: "scores not a list", extra: #""scores": {"id": "x"}"#, questions: standard, fragments: ["“scores” must be a list"]),
        Case(name: "score without operation", extra: #""scores": [{"id": "x", "items": ["pa1"]}]"#, questions: standard,
             fragments: ["Score 1 (“x”)", "needs one of “sum”, “mean”"]),
        Case(name: "score with two operations", extra: #""scores": [{"id": "x", "sum": ["pa1"], "mean": ["pa2"]}]"#, questions: standard,
             fragments: ["has 2 of", "give exactly one"]),
        Case(name: "score id clashes with a question", extra: #""scores": [{"id": "pa1", "sum": ["pa2"]}]"#, questions: standard,
             fragments: ["“pa1” is already used"]),
        Case(name: "score id not a plain name", extra: #""scores": [{"id": "pa mean", "sum": ["pa2"]}]"#, questions: standard,
             fragments: ["not a plain name"]),
        Case(name: "score item unknown", extra: #""scores": [{"id": "s", "sum": ["pa1", "pa9"]}]"#, questions: standard,
             fragments: ["item “pa9” is not a question"]),
        Case(name: "score item not scorable", extra: #""scores": [{"id": "s", "sum": ["pa1", "note"]}]"#, questions: standard,
             fragments: ["item “note” is a free_response question", "no single number"]),
        Case(name: "reversed item without range", extra: #""scores": [{"id": "s", "sum": ["pa1", "num"], "reverse": ["num"]}]"#,
             questions: standard, fragments: ["“num” is reversed but has no range"]),
        Case(name: "reversed item not an item", extra: #""scores": [{"id": "s", "sum": ["pa1"], "reverse": ["pa2"]}]"#,
             questions: standard, fragments: ["“reverse” names “pa2”, which is not one of its items"]),
        Case(name: "min_answered too high", extra: #""scores": [{"id": "s", "mean": ["pa1", "pa2"], "min_answered": 3}]"#,
             questions: standard, fragments: ["min_answered is 3", "between 1 and its 2 items"]),
        Case(name: "misspelt score field", extra: #""scores": [{"id": "s", "mean": ["pa1", "pa2"], "min_answerd": 1}]"#,
             questions: standard, fragments: ["perhaps “min_answered”"]),
        Case(name: "display_if on a score of earlier questions", extra: #""scores": [{"id": "s", "sum": ["pa1", "pa2"]}]"#,
             questions: standard + [#"{"question_id": "why", "question_type": "free_response", "question_text": "Why?", "display_if": {">": ["s", 8]}}"#],
             fragments: []),
        Case(name: "display_if on a score of a later question", extra: #""scores": [{"id": "s", "sum": ["pa1", "late"]}]"#,
             questions: [slider("pa1"), #"{"question_id": "why", "question_type": "free_response", "question_text": "Why?", "display_if": {">": ["s", 8]}}"#, slider("late")],
             fragments: ["refers to score “s”, which uses question 3 (“late”)"]),
        Case(name: "display_if names a score by text", extra: #""scores": [{"id": "s", "sum": ["pa1"]}]"#,
             questions: [slider("pa1"), #"{"question_id": "why", "question_type": "free_response", "question_text": "Why?", "display_if": {"==": ["s", "high"]}}"#],
             fragments: ["a score is a number"]),
        Case(name: "good piping", extra: #""scores": [{"id": "s", "sum": ["pa1"]}]"#,
             questions: standard + [slider("close", "With {{answer:who|label|else:someone}} ({{answer:note}}), {{score:s}}, {{var:partner_name}}?")],
             fragments: []),
        Case(name: "piping a later answer", extra: "",
             questions: [slider("a", "After {{answer:b}}?"), slider("b")], fragments: ["“{{answer:b}}”", "not asked before it"]),
        Case(name: "piping its own answer", extra: "",
             questions: [slider("a", "Again {{answer:a}}?")], fragments: ["not asked before it"]),
        Case(name: "piping an unknown question", extra: "",
             questions: [slider("a", "{{answer:zz}}?")], fragments: ["names unknown question “zz”"]),
        Case(name: "piping a yes/no answer", extra: "",
             questions: standard + [slider("x", "{{answer:ok}}?")], fragments: ["a yes_no question whose answer cannot be shown as text"]),
        Case(name: "a label of a question without options", extra: "",
             questions: standard + [slider("x", "{{answer:pa1|label}}?")], fragments: ["asks for the label of question 1"]),
        Case(name: "an unreadable placeholder", extra: "",
             questions: standard + [slider("x", "{{answer:pa1|bold}}?")], fragments: ["has “bold”"]),
        Case(name: "an unknown source", extra: "",
             questions: standard + [slider("x", "{{question:pa1}}?")], fragments: ["does not start with answer:, score: or var:"]),
        Case(name: "piping in an option, in every language", extra: "",
             questions: standard + [#"{"question_id": "cmp", "question_type": "radio_button", "question_text": "Compared?", "answers": [{"text": {"en": "More than {{answer:late}}", "de": "Mehr als {{answer:late}}"}, "value": "more"}]}"#, slider("late")],
             fragments: ["option 1 has “{{answer:late}}”"]),
        Case(name: "conditions on variables", extra: "",
             questions: [slider("a", "A?", #", "display_if": {"and": [{"==": ["var:group", "evening"]}, {">": ["var:baseline", 2]}]}"#)],
             fragments: []),
        Case(name: "a variable that is not a plain name", extra: "",
             questions: [slider("a", "A?", #", "display_if": {"==": ["var:the group", "evening"]}"#)], fragments: ["variable “the group”", "not a plain name"]),
        Case(name: "a variable's text compared by order", extra: "",
             questions: [slider("a", "A?", #", "display_if": {"<": ["var:group", "evening"]}"#)], fragments: ["a text is compared only with == or !="]),
        Case(name: "good groups", extra: #""randomize_groups": [["pa1", "pa2"], ["num", "ok"]]"#, questions: standard, fragments: []),
        Case(name: "groups not a list", extra: #""randomize_groups": "pa1""#, questions: standard, fragments: ["must be a list of lists"]),
        Case(name: "a group of one", extra: #""randomize_groups": [["pa1"]]"#, questions: standard, fragments: ["at least two questions"]),
        Case(name: "a group with a gap", extra: #""randomize_groups": [["pa1", "who"]]"#, questions: standard, fragments: ["not next to each other"]),
        Case(name: "a question in two groups", extra: #""randomize_groups": [["pa1", "pa2"], ["pa2", "who"]]"#, questions: standard,
             fragments: ["“pa2” is listed twice"]),
        Case(name: "a group with an unknown question", extra: #""randomize_groups": [["pa1", "zz"]]"#, questions: standard,
             fragments: ["“zz” is not a question"]),
        Case(name: "a group member depending on another by display_if", extra: #""randomize_groups": [["a", "b"]]"#,
             questions: [slider("a"), slider("b", "B?", #", "display_if": {">": ["a", 2]}"#)],
             fragments: ["“b” depends on “a”", "same group"]),
        Case(name: "a group member piping another's answer", extra: #""randomize_groups": [["a", "b"]]"#,
             questions: [slider("a"), slider("b", "After {{answer:a}}?")], fragments: ["“b” depends on “a”"]),
        Case(name: "a group member depending on a score of another", extra: #""randomize_groups": [["a", "b"]], "scores": [{"id": "s", "sum": ["a"]}]"#,
             questions: [slider("a"), slider("b", "B?", #", "display_if": {">": ["s", 2]}"#)], fragments: ["“b” depends on “a”"]),
    ]

    @Test("Problems", arguments: cases)
    func problems(_ testCase: Case) throws {
        let extra = testCase.extra.isEmpty ? "" : ", " + testCase.extra
        let json = #"{"content": [\#(testCase.questions.joined(separator: ", "))]\#(extra)}"#
        let survey = try SurveyDocument(jsonData: Data(json.utf8))
        let messages = survey.problems().map(\.message)
        if testCase.fragments.isEmpty {
            #expect(messages.isEmpty, "unexpected: \(messages)")
        }
        for fragment in testCase.fragments {
            #expect(messages.contains { $0.contains(fragment) }, "no problem mentions “\(fragment)”: \(messages)")
        }
    }

    @Test("Scores, groups and piped texts round-trip as written")
    func roundTrip() throws {
        let json = #"{"content": [\#(Self.standard.joined(separator: ", "))], "scores": [{"id": "s", "sum": ["pa1", "pa2"]}], "randomize_groups": [["pa1", "pa2"]]}"#
        let survey = try SurveyDocument(jsonData: Data(json.utf8))
        let again = try SurveyDocument(jsonData: survey.jsonData())
        #expect(again.scores == survey.scores)
        #expect(again.randomizedGroups == [["pa1", "pa2"]])
        #expect(again.extraFields["scores"] == survey.extraFields["scores"])
    }

    @Test("The codebook summary says how a score is computed")
    func summary() {
        let score = SurveyScore(id: "pa", operation: .mean, items: ["a", "b", "c"], reversed: ["b"], minAnswered: 2)
        #expect(score.summary == "mean of a, b, c (b reversed; at least 2 answered)")
        #expect(SurveyScore(id: "n", operation: .count, items: ["a", "b"]).summary == "count of answered a, b")
    }

    @Test("Stored scores: every score of the answers, null when too few were answered")
    func storedScores() throws {
        let json = #"{"content": [\#(Self.standard.joined(separator: ", "))], "scores": [{"id": "s", "sum": ["pa1", "pa2"]}, {"id": "m", "max": ["pa1", "pa2"], "min_answered": 1}]}"#
        let survey = try SurveyDocument(jsonData: Data(json.utf8))
        let results = try AnswerValidator.validate([SubmittedAnswer(questionID: "pa1", answer: .number(4))], against: survey)
        #expect(try survey.scoresJSONText(of: results) == #"{"m":4,"s":null}"#)
        let plain = try SurveyDocument(jsonData: Data(#"{"content": [\#(Self.standard[0])]}"#.utf8))
        #expect(try plain.scoresJSONText(of: []) == nil)
    }
}
