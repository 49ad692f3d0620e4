import MomentaryCore
import Testing

@Suite("Question ids")
struct QuestionIdentifierTests {
    @Test("plain names pass; others are refused with a suggestion that passes")
    func rule() {
        for good in ["mood", "Positive_affect_2", "a", String(repeating: "x", count: 64)] {
            #expect(QuestionIdentifier.isValid(good), "\(good)")
            #expect(QuestionIdentifier.issue(with: good) == nil)
        }
        let suggestions = [
            "positive affect": "positive_affect", "2nd mood": "q_2nd_mood", "naïve": "naive", "mood-today!": "mood_today",
            "_hidden": "hidden", "中文": "question", String(repeating: "y", count: 70): String(repeating: "y", count: 64),
        ]
        for (bad, suggestion) in suggestions {
            #expect(!QuestionIdentifier.isValid(bad), "\(bad)")
            #expect(QuestionIdentifier.suggestion(for: bad) == suggestion, "\(bad)")
            #expect(QuestionIdentifier.isValid(QuestionIdentifier.suggestion(for: bad)))
            #expect(QuestionIdentifier.issue(with: bad)?.contains("for example to “\(suggestion)”") == true)
        }
        #expect(QuestionIdentifier.issue(with: " ") == nil, "an empty id has its own message")
    }
}
