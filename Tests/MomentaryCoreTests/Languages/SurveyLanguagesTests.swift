import Foundation
import Testing
@testable import MomentaryCore

@Suite("A survey in several languages: read, sent in one language, and checked for gaps")
struct SurveyLanguagesTests {
    static let document = """
        {"content": [
          {"question_id": "mood", "question_type": "slider", "min": 0, "max": 10,
           "question_text": {"en": "How happy are you?", "de": "Wie glücklich sind Sie?"},
           "min_label": {"en": "Not at all", "de": "Gar nicht"}, "max_label": "Extremely"},
          {"question_id": "where", "question_type": "radio_button",
           "question_text": {"en": "Where are you?", "de": "Wo sind Sie?"},
           "answers": [{"text": {"en": "At home", "de": "Zu Hause"}, "value": "home"}, {"text": {"en": "At work"}}]}
        ]}
        """

    @Test("texts by language round-trip through JSON")
    func roundTrip() throws {
        let survey = try SurveyDocument(jsonData: Data(Self.document.utf8))
        let again = try SurveyDocument(json: survey.json)
        #expect(again == survey)
        #expect(survey.content[0].text.byLanguage["de"] == "Wie glücklich sind Sie?")
        #expect(survey.problems().isEmpty, "\(survey.problems())")
    }

    @Test("localized: every text in one language as a plain string; stored values unchanged")
    func localized() throws {
        let survey = try SurveyDocument(jsonData: Data(Self.document.utf8))
        let german = survey.localized(for: ["de-AT"], languages: ["en", "de"])
        #expect(german.content[0].text == LocalizedText("Wie glücklich sind Sie?"))
        guard case .slider(let scale) = german.content[0].kind else { Issue.record("not a slider"); return }
        #expect(scale.minLabel == LocalizedText("Gar nicht"))
        #expect(scale.maxLabel == LocalizedText("Extremely"), "a plain text is everyone's")
        #expect(german.content[1].kind.options.map(\.text.text) == ["Zu Hause", "At work"], "missing German falls back to English")
        #expect(german.content[1].kind.options[0].key == "home")
        #expect(german.json.objectValue?["content"]?.arrayValue?[0].objectValue?["question_text"] == .string("Wie glücklich sind Sie?"))
    }

    @Test("translation problems name each text missing a language, and each translated option without a value")
    func gaps() throws {
        let survey = try SurveyDocument(jsonData: Data(Self.document.utf8))
        let messages = survey.translationProblems(languages: ["en", "de"]).map(\.message)
        #expect(messages.contains("Question 1 (“mood”): max_label has no text in de."), "\(messages)")
        #expect(messages.contains("Question 2 (“where”): option 2 has no text in de."), "\(messages)")
        #expect(messages.contains { $0.contains("option 2 has its text by language, so it needs a “value”") }, "\(messages)")
        #expect(!messages.contains { $0.contains("option 1") }, "\(messages)")
        #expect(survey.translationProblems(languages: ["en", "de", "fr"]).count > messages.count)
    }

    @Test("a text that is neither a string nor an object of strings is refused with its question")
    func malformed() {
        let text = #"{"content": [{"question_id": "q", "question_type": "yes_no", "question_text": {"en": 3}}]}"#
        #expect(throws: SurveyFormatError.self) { try SurveyDocument(jsonData: Data(text.utf8)) }
    }
}
