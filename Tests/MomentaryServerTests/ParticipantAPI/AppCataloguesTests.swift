import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("The server's participant texts from the app's catalogues")
struct AppCataloguesTests {
    @Test("plural categories as Intl.PluralRules gives them for whole numbers")
    func plurals() {
        #expect([0, 1, 2, 5].map { PluralCategory.of($0, in: "en") } == [.other, .one, .other, .other])
        #expect([0, 1, 2].map { PluralCategory.of($0, in: "fr-CA") } == [.one, .one, .other])
        #expect([1, 7].map { PluralCategory.of($0, in: "zh-Hans") } == [.other, .other])
        #expect([0, 1, 2, 3, 10, 11, 99, 100, 102, 103, 111].map { PluralCategory.of($0, in: "ar") }
            == [.zero, .one, .two, .few, .few, .many, .many, .other, .other, .few, .many])
    }

    @Test("a text in the participant's catalogue, by base language, else English; placeholders and plurals filled")
    func texts() {
        #expect(AppCatalogues.text("status.first_response", language: "de-AT") == "Vielen Dank für Ihre erste Antwort.")
        #expect(AppCatalogues.text("status.first_response", language: "ja") == "Thank you for your first response.")
        #expect(AppCatalogues.text("status.welcome", language: "nl", ["start": "09:00", "end": "21:00"])
            == "Welkom! Uw vragen komen tussen 09:00 en 21:00.")
        #expect(AppCatalogues.text("status.responses", language: "en", count: 12) == "Thank you: 12 responses so far.")
        #expect(AppCatalogues.text("status.responses", language: "ar", count: 3) == "شكرًا: 3 إجابات حتى الآن.")
    }

    @Test("MomentaryCore's English feedback words are en.json's, word for word")
    func englishFeedbackWords() {
        let keys = ["feedback.no_slider", "feedback.by_time_of_day", "survey.yes", "survey.no", "feedback.no_answers_yet",
                    "feedback.averages", "feedback.omitted"]
        let catalogue = AppCatalogues.feedbackWords(language: "en")
        for key in keys {
            for count in [1, 2] {
                let values = ["question": "How happy?", "minimum": "3"]
                #expect(FeedbackWords.english.text(key, values, count: count) == catalogue.text(key, values, count: count), "\(key) \(count)")
            }
        }
    }

    @Test("a German participant's feedback page: German words, the page in German, the question in German")
    func germanFeedback() {
        let survey = SurveyDocument(content: [SurveyQuestion(
            id: "happy", text: LocalizedText(byLanguage: ["en": "How happy?", "de": "Wie glücklich?"]),
            kind: .slider(SliderScale(min: 0, max: 10, minLabel: LocalizedText(byLanguage: ["en": "Not", "de": "Gar nicht"]))))])
            .localized(for: ["de"], languages: ["en", "de"])
        let samples = (0..<4).map { FeedbackCalculator.Sample(localHour: 9, answers: ["happy": .number(Double($0 + 5))]) }
        let summary = FeedbackCalculator.summary(survey: survey, samples: samples, words: AppCatalogues.feedbackWords(language: "de"))
        #expect(summary.note == "Durchschnitte Ihrer 4 Antworten auf „Wie glücklich?“.")
        #expect(summary.groups.map(\.title) == ["Nach Tageszeit"])
        let page = ParticipantPage.document(title: "Mein Wohlbefinden", language: "de-AT", body: FeedbackCharts.section(summary, language: "de-AT"))
        #expect(page.contains(#"<html lang="de" dir="ltr">"#))
        #expect(page.contains("Ihr Durchschnitt: <strong>6.5</strong> auf einer Skala von 0 (Gar nicht) bis 10."), "\(page)")
        #expect(page.contains("4 Antworten"))
        #expect(ParticipantPage.document(title: "سعادتي", language: "ar", body: "").contains(#"<html lang="ar" dir="rtl">"#))
    }

    @Test("air quality: en.json repeats MomentaryCore's words, and a German participant's status reads German")
    func airQuality() throws {
        let categories = [
            AirQualityBands.epaGood, AirQualityBands.epaModerate, AirQualityBands.epaSensitiveGroups,
            AirQualityBands.epaUnhealthy, AirQualityBands.epaVeryUnhealthy, AirQualityBands.epaHazardous,
        ]
        for category in categories {
            let keys = try #require(EnvironmentRisk.airQualityKeys[category.name])
            #expect(AppCatalogues.text(keys.name, language: "en") == category.name)
            #expect(AppCatalogues.text(keys.concerned, language: "en") == category.concerned)
            #expect(AppCatalogues.text(keys.advice, language: "en") == category.advice)
        }
        let json = #"{"hour": "2026-11-28T09:00:00Z", "pollen_type": "grass", "air_quality": "Moderate", "air_quality_concerned": "x", "air_quality_advice": "y"}"#
        let risk = try WireCoding.makeDecoder().decode(EnvironmentRisk.self, from: Data(json.utf8)).inLanguage("de")
        #expect(risk.airQuality == "Mäßig")
        #expect(risk.airQualityConcerned == "Menschen, die ungewöhnlich empfindlich auf Feinstaub reagieren.")
        #expect(risk.airQualityAdvice?.hasPrefix("Wenn Sie ungewöhnlich empfindlich sind") == true)
    }
}
