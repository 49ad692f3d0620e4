import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// Texts participants read have stated limits (`TextLimits`): shown beside the website's fields,
/// and refused with a message by the website, `studies import` and the survey rules alike.
@Suite("Text limits")
struct TextLimitTests {
    @Test("a 900 KB consent is refused next to its field, and the study keeps its text")
    func consentOnTheWebsite() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/new")
            let valid = StudyFormFields.valid(slug: "long", name: "Long texts")
            #expect(try await client.post("/studies", valid).status == .seeOther)
            let form = try await client.get("/studies/long/settings").body.string
            #expect(form.contains("Consent text (at most 20,000 characters)") && form.contains(#"maxlength="20000""#))
            let huge = String(repeating: "a", count: 900_000)
            let refused = try await client.post("/studies/long/settings", valid.filter { $0.0 != "consentText" } + [("consentText", huge)])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains(#"id="consentText-problem""#))
            #expect(refused.body.string.contains("Consent text is 900,000 characters long; at most 20,000 are allowed."))
            let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "long").first())
            #expect(study.consentText.count < 1_000)
            let translated = try await client.post("/studies/long/settings", valid + [
                ("languages", "en, de"), ("translation_de_alert_text", String(repeating: "ä", count: 201)),
            ])
            #expect(translated.status == .unprocessableEntity)
            #expect(translated.body.string.contains("Alert text in German (de) is 201 characters long; at most 200 are allowed."))
        }
    }

    @Test("study documents and surveys: each text within its limit, in every language")
    func documents() throws {
        let long = String(repeating: "x", count: TextLimits.questionText + 1)
        let survey = try SurveyDocument(jsonData: Data("""
            {"content": [{"question_id": "q", "question_type": "radio_button", "question_text": {"en": "Q", "de": "\(long)"},
              "answers": [{"text": "\(String(repeating: "o", count: 501))", "value": "o"}]}]}
            """.utf8))
        let messages = survey.problems().map(\.message)
        #expect(messages.contains("Question 1 (“q”): question_text (de) is 2,001 characters long; at most 2,000 are allowed."), "\(messages)")
        #expect(messages.contains("Question 1 (“q”): option 1 is 501 characters long; at most 500 are allowed."), "\(messages)")
        #expect(TextLimits.problem(String(repeating: "y", count: 200), limit: TextLimits.alertText, label: "alert_text") == nil)
    }
}
