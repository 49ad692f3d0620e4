import Foundation
@testable import MomentaryCore
import Testing

/// Conditions that name a choice by its value: read, written back, resolved, and checked.
@Suite("display_if by option value")
struct DisplayConditionValueTests {
    static let survey = """
    {"content": [
      {"question_id": "where", "question_type": "radio_button", "question_text": "Where?",
       "answers": [{"text": "At home", "value": "home"}, {"text": "At work", "value": "work"}, {"text": "Outside"}]},
      {"question_id": "mood", "question_type": "slider", "question_text": "Mood?", "min": 0, "max": 10},
      {"question_id": "commute", "question_type": "yes_no", "question_text": "Commute?", "display_if": {"==": ["where", "work"]}}
    ]}
    """

    func document(_ condition: String? = nil) throws -> SurveyDocument {
        var text = Self.survey
        if let condition { text = text.replacingOccurrences(of: #"{"==": ["where", "work"]}"#, with: condition) }
        return try SurveyDocument(jsonData: Data(text.utf8))
    }

    @Test("a string target is read as a value, written back unchanged, and follows the option wherever it moves")
    func readsAndResolves() throws {
        var survey = try document()
        #expect(survey.content[2].displayIf == .matches(questionID: "where", .equal, "work"))
        #expect(survey.content[2].displayIf?.json == .object(["==": .array([.string("where"), .string("work")])]))
        #expect(survey.problems().isEmpty)
        #expect(survey.isDisplayed(survey.content[2], given: ["where": .string("work")]))
        #expect(!survey.isDisplayed(survey.content[2], given: ["where": .string("home")]))
        #expect(!survey.isDisplayed(survey.content[2], given: [:]), "no answer: false, as for numbers")

        // Reordered options: the same answer still shows the question; a position would not.
        guard case .radioButton(var options) = survey.content[0].kind else { Issue.record("not a choice"); return }
        options.reverse()
        survey.content[0].kind = .radioButton(options)
        #expect(survey.isDisplayed(survey.content[2], given: ["where": .string("work")]))
        #expect(!survey.isDisplayed(survey.content[2], given: ["where": .string("home")]))

        let byText = try document(#"{"!=": ["where", "Outside"]}"#)
        #expect(byText.problems().isEmpty, "an option without a value is named by its text")
        #expect(!byText.isDisplayed(byText.content[2], given: ["where": .string("Outside")]))
        #expect(byText.isDisplayed(byText.content[2], given: ["where": .string("home")]))
    }

    @Test("an unknown value, a value on a slider and an ordering operator are reported")
    func problems() throws {
        #expect(try document(#"{"==": ["where", "office"]}"#).problems().map(\.message) == [
            "Question 3 (“commute”): display_if names “office”, which is not a value of question 1 (“where”) (its values: “home”, “work”, “Outside”).",
        ])
        #expect(try document(#"{"==": ["mood", "high"]}"#).problems().map(\.message) == [
            "Question 3 (“commute”): display_if compares question 2 (“mood”) with the text “high”, but only choices and suggested tokens can be named by their value; compare other answers with a number.",
        ])
        #expect(try document(#"{">": ["where", "home"]}"#).problems().map(\.message) == [
            "Question 3 (“commute”): display_if compares question 1 (“where”) with “home” using “>”; an option named by its value is compared only with == or !=.",
        ])
        #expect(try document(#"{"==": ["later", "x"]}"#).problems().map(\.message) == [
            "Question 3 (“commute”): display_if refers to unknown question “later”.",
        ])
    }
}
