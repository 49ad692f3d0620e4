import Foundation
import MomentaryCore
import Testing

@Suite("Feedback charts")
struct FeedbackCalculatorTests {
    let survey = SampleSurveys.experienceSampling

    private func sample(hour: Int, happy: Double?, where place: String? = nil, with company: [String] = []) -> FeedbackCalculator.Sample {
        var answers: [String: JSONValue] = [:]
        if let happy { answers["happy"] = .number(happy) }
        if let place { answers["where"] = .string(place) }
        if !company.isEmpty { answers["with_whom"] = .array(company.map(JSONValue.string)) }
        return FeedbackCalculator.Sample(localHour: hour, answers: answers)
    }

    @Test("means by place, company and hour; categories under three answers are left out and counted")
    func meansAndOmissions() throws {
        let samples = [
            sample(hour: 9, happy: 60, where: "work", with: ["colleagues"]),
            sample(hour: 9, happy: 70, where: "work", with: ["colleagues", "friends"]),
            sample(hour: 9, happy: 80, where: "work", with: ["colleagues"]),
            sample(hour: 20, happy: 90, where: "home", with: ["partner"]),
            sample(hour: 20, happy: 100, where: "home"),
            sample(hour: 20, happy: nil, where: "home"),
        ]
        let summary = FeedbackCalculator.summary(survey: survey, samples: samples)
        #expect(summary.question?.id == "happy", "the first slider by default")
        #expect(summary.answers == 5)
        #expect(summary.mean == 80)
        let place = try #require(summary.groups.first { $0.id == "where" })
        #expect(place.categories == [FeedbackCategory(key: "work", label: "At work", mean: 70, answers: 3)])
        #expect(place.omittedCategories == 1, "home has two rated answers: left out")
        let company = try #require(summary.groups.first { $0.id == "with_whom" })
        #expect(company.categories.map(\.key) == ["colleagues"])
        #expect(company.omittedCategories == 2, "friends and partner once each")
        let hours = try #require(summary.groups.last)
        #expect(hours.id == FeedbackGroup.hourOfDayID)
        #expect(hours.categories == [FeedbackCategory(key: "9", label: "09:00–10:00", mean: 70, answers: 3)])
        #expect(summary.note.contains("fewer than 3 answers"))
    }

    @Test("the study can name another slider; a survey without sliders has nothing to chart")
    func chosenQuestion() {
        let samples = (0..<3).map { _ in FeedbackCalculator.Sample(localHour: 8, answers: ["happy": .number(10), "awake": .number(40)]) }
        #expect(FeedbackCalculator.summary(survey: survey, feedbackQuestionID: "awake", samples: samples).mean == 40)
        let noSlider = SurveyDocument(content: [SurveyQuestion(id: "where", text: "Where?", kind: .yesNo)])
        let empty = FeedbackCalculator.summary(survey: noSlider, samples: samples)
        #expect(empty.question == nil && empty.groups.isEmpty && empty.mean == nil)
    }

    @Test("the JSON names every figure and writes missing ones as null")
    func wireShape() throws {
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(FeedbackCalculator.summary(survey: survey, samples: []))) as? [String: Any]
        #expect(json?["mean"] is NSNull)
        #expect(json?["minimum_answers"] as? Int == 3)
        let groups = json?["groups"] as? [[String: Any]]
        #expect(groups?.first?["omitted_categories"] as? Int == 0)
    }
}

@Suite("Download codes")
struct DownloadCodeTests {
    @Test("codes have at least 64 bits, no vowels or look-alikes, and are shown in groups of four")
    func shape() {
        #expect(SecretCode.entropyBits(length: DownloadCode.length, alphabet: .link) >= 64)
        let code = DownloadCode.generate()
        #expect(code.split(separator: "-").map(\.count) == [4, 4, 4, 4])
        #expect(!code.contains { "aeiou01l".contains($0) })
        #expect(DownloadCode.canonical(code) == code.replacingOccurrences(of: "-", with: ""))
        #expect(DownloadCode.canonical(code.uppercased()) != nil, "case is forgiven")
        #expect(DownloadCode.canonical("bcdf-ghjk-mnpq-rsta") == nil, "a vowel")
        #expect(DownloadCode.canonical("bcdf-ghjk-mnpq") == nil, "too short")
        #expect(Set((0..<50).map { _ in DownloadCode.generate() }).count == 50)
    }
}
