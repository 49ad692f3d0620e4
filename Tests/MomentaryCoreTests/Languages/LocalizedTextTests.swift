import Foundation
import Testing
@testable import MomentaryCore

@Suite("Texts by language: tags, Accept-Language, study languages, missing translations")
struct LocalizedTextTests {
    @Test("well-formed tags: language, script, region, variant; others refused")
    func tags() {
        for tag in ["en", "de-AT", "zh-Hans", "zh-Hans-CN", "es-419", "sr-Latn-RS", "de-CH-1996", "fil"] {
            #expect(LanguageTag.isWellFormed(tag), "\(tag)")
        }
        for tag in ["", "e", "english", "de_AT", "de-", "-de", "de-A", "12", "de-Hans-", "en-US-x"] {
            #expect(!LanguageTag.isWellFormed(tag), "\(tag)")
        }
    }

    @Test("Accept-Language: by weight, then order; q=0 and * left out")
    func acceptLanguage() {
        #expect(LanguageTag.preferences(fromAcceptLanguage: "de-AT,de;q=0.9,en;q=0.8") == ["de-AT", "de", "en"])
        #expect(LanguageTag.preferences(fromAcceptLanguage: "en;q=0.5, fr , *;q=0.1, nl;q=0") == ["fr", "en"])
        #expect(LanguageTag.preferences(fromAcceptLanguage: "") == [])
    }

    @Test("a study's languages: at least one, well formed, once each, and with an app catalogue")
    func studyLanguages() {
        #expect(StudyLanguages.problems(["en", "de", "ar"]).isEmpty)
        #expect(StudyLanguages.problems(["de-AT"]).isEmpty, "the German catalogue serves Austrian German")
        #expect(StudyLanguages.problems([]).count == 1)
        #expect(StudyLanguages.problems(["en", "EN"]).contains { $0.contains("listed twice") })
        #expect(StudyLanguages.problems(["en", "english"]).contains { $0.contains("not a language tag") })
        #expect(StudyLanguages.problems(["en", "ja"]).contains { $0.contains("no catalogue for “ja”") })
    }

    @Test("a participant may choose only a study language, named as the study writes it")
    func offered() {
        #expect(StudyLanguages.offered("DE", in: ["en", "de"]) == "de")
        #expect(StudyLanguages.refusal("de", in: ["en", "de"]) == nil)
        #expect(StudyLanguages.refusal("fr", in: ["en", "de"]) == "“fr” is not a language of this study; it offers en, de.")
    }

    @Test("missing and unknown languages of a text")
    func gaps() {
        let plain = LocalizedText("How happy are you?")
        #expect(plain.missingLanguages(of: ["en"]).isEmpty)
        #expect(plain.missingLanguages(of: ["en", "de"]) == ["de"])
        let byLanguage = LocalizedText(byLanguage: ["en": "Yes", "de": " ", "fr": "Oui"])
        #expect(byLanguage.missingLanguages(of: ["en", "de"]) == ["de"], "a blank text is missing")
        #expect(byLanguage.unknownLanguages(of: ["en", "de"]) == ["fr"])
        #expect(StudyLanguages.problems(of: byLanguage, label: "alert_text", languages: ["en", "de"])
            == ["alert_text has no text in de", "alert_text has a text in fr, which the study does not offer"])
        #expect(StudyLanguages.problems(of: LocalizedText(""), label: "alert_text", languages: ["en", "de"]).isEmpty,
                "an empty plain text is another rule's to refuse")
    }

    @Test("JSON: a string or an object of strings; anything else is refused")
    func json() throws {
        #expect(LocalizedText(json: .string("Hi")) == LocalizedText("Hi"))
        #expect(LocalizedText(json: .object(["en": .string("Hi"), "de": .string("Hallo")]))?.byLanguage == ["en": "Hi", "de": "Hallo"])
        #expect(LocalizedText(json: .object([:])) == nil)
        #expect(LocalizedText(json: .object(["en": .number(1)])) == nil)
        #expect(LocalizedText(json: .number(1)) == nil)
        let text = LocalizedText(byLanguage: ["en": "Hi", "de": "Hallo"])
        #expect(try JSONDecoder().decode(LocalizedText.self, from: JSONEncoder().encode(text)) == text)
    }
}
