import Foundation
import MomentaryCore
import Testing

@Suite("Feedback subject: a slider or a score")
struct FeedbackSubjectTests {
    static let survey = try! SurveyDocument(jsonData: Data("""
        {"content": [
          {"question_id": "pa1", "question_type": "slider", "question_text": "Cheerful?", "min": 1, "max": 5},
          {"question_id": "pa2", "question_type": "radio_button", "question_text": "Gloomy?", "answers": [{"text": "No"}, {"text": "A bit"}, {"text": "Very"}]},
          {"question_id": "ok", "question_type": "yes_no", "question_text": "All right?"},
          {"question_id": "steps", "question_type": "number", "question_text": "Steps?"},
          {"question_id": "where", "question_type": "radio_button", "question_text": "Where?", "answers": [{"text": "Home"}, {"text": "Work"}]}
        ],
        "scores": [
          {"id": "mood", "mean": ["pa1", "pa2"], "reverse": ["pa2"], "label": {"en": "Mood", "de": "Stimmung"}},
          {"id": "total", "sum": ["pa1", "pa2", "ok"]},
          {"id": "answered", "count": ["pa1", "pa2", "ok", "steps"]},
          {"id": "highest", "max": ["pa1", "pa2"]},
          {"id": "walked", "sum": ["pa1", "steps"], "label": "Walked"}
        ]}
        """.utf8))

    @Test("a score's range follows its operation over its items' ranges; an item without one leaves it out of charts")
    func ranges() throws {
        let ranges = Dictionary(uniqueKeysWithValues: Self.survey.scores.map { ($0.id, $0.range(in: Self.survey).map { [$0.low, $0.high] }) })
        #expect(ranges["mood"] == [0, 5], "mean: lowest low (radio position 0) to highest high (slider 5)")
        #expect(ranges["total"] == [1, 8], "sum: 1 + 0 + 0 to 5 + 2 + 1")
        #expect(ranges["answered"] == [0, 4], "count: none to every item, whatever their ranges")
        #expect(ranges["highest"] == [0, 5])
        #expect(ranges["walked"] == .some(nil), "a number question without min and max has no range")
        #expect(FeedbackSubject(in: Self.survey, named: "walked") == nil)
    }

    @Test("the subject named, else the first slider; a score's value is computed from the answers like the stored one")
    func subjectAndValue() throws {
        #expect(FeedbackSubject(in: Self.survey, named: nil)?.id == "pa1")
        #expect(FeedbackSubject(in: Self.survey, named: " ")?.id == "pa1")
        let mood = try #require(FeedbackSubject(in: Self.survey, named: "mood"))
        #expect(mood.score?.id == "mood" && mood.described.min == 0 && mood.described.max == 5)
        // pa2 reversed over positions 0–2: "A bit" (1) counts 1; mean of 4 and 1.
        #expect(mood.value(of: ["pa1": .number(4), "pa2": .string("A bit")], in: Self.survey) == 2.5)
        #expect(mood.value(of: ["pa1": .number(4)], in: Self.survey) == nil, "every item is needed by default")
        let slider = try #require(FeedbackSubject(in: Self.survey, named: "pa1"))
        #expect(slider.score == nil && slider.value(of: ["pa1": .number(3)], in: Self.survey) == 3)
        #expect(FeedbackSubject(in: Self.survey, named: "where") == nil, "a radio button is not a subject")
    }

    @Test("charts of a score are titled with its label in the participant's language")
    func localizedLabel() throws {
        let german = Self.survey.localized(for: ["de"], languages: ["en", "de"])
        #expect(german.score(withID: "mood")?.label == "Stimmung")
        let samples = (0..<3).map { _ in FeedbackCalculator.Sample(localHour: 9, answers: ["pa1": .number(5), "pa2": .string("No"), "where": .string("Home")]) }
        let summary = FeedbackCalculator.summary(survey: german, feedbackQuestionID: "mood", samples: samples)
        // pa2 "No" (position 0) reversed over 0–2 counts 2: mean of 5 and 2.
        #expect(summary.question?.text == "Stimmung" && summary.mean == 3.5 && summary.answers == 3)
        #expect(summary.groups.first { $0.id == "where" }?.categories.first?.mean == 3.5)
    }

    @Test("a study may name a slider, or a score with a range and a label in each of its languages")
    func problems() {
        let languages = ["en", "de"]
        #expect(FeedbackSubject.problem(named: "pa1", survey: Self.survey, languages: languages) == nil)
        #expect(FeedbackSubject.problem(named: "mood", survey: Self.survey, languages: languages) == nil)
        #expect(FeedbackSubject.problem(named: "", survey: nil, languages: languages) == nil)
        #expect(FeedbackSubject.problem(named: "total", survey: Self.survey, languages: languages)?.contains("without a “label”") == true)
        #expect(FeedbackSubject.problem(named: "walked", survey: Self.survey, languages: ["en"])?.contains("no range") == true)
        #expect(FeedbackSubject.problem(named: "walked", survey: Self.survey, languages: languages) != nil)
        #expect(FeedbackSubject.problem(named: "mood", survey: Self.survey, languages: ["en", "fr"])?.contains("has no text in fr") == true)
        let unknown = FeedbackSubject.problem(named: "where", survey: Self.survey, languages: languages)
        #expect(unknown?.contains("choose one of pa1, mood, total, answered, highest") == true, "\(unknown ?? "")")
    }
}
