import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// Researchers give a study's texts in its languages on the website: the study's own in Settings,
/// each question's in the builder beside the default's; the overview lists what is missing, and
/// the preview shows the survey in any of the languages.
@Suite("Website: translations")
struct TranslationEditingTests {
    @Test("settings take the languages and the study's texts in each; a language without a catalogue is refused by field")
    func settings() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            _ = try await client.get("/studies/new")
            let valid = StudyFormFields.valid(slug: "zwei", name: "Moods")
            #expect(try await client.post("/studies", valid).status == .seeOther)
            let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "zwei").first())
            #expect(study.languages == ["en"], "a form without languages keeps English only")

            let refused = try await client.post("/studies/zwei/settings", valid + [("languages", "en, ja")])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains(#"id="languages-problem""#) && refused.body.string.contains("no catalogue for “ja”"))

            #expect(try await client.post("/studies/zwei/settings", valid + [("languages", "en, de")]).status == .seeOther)
            let form = try await client.get("/studies/zwei/settings").body.string
            #expect(form.contains(#"name="translation_de_consent_text""#) && form.contains("In German (de)"))
            #expect(try await client.post("/studies/zwei/settings", valid + [
                ("languages", "en, de"), ("translation_de_name", "Stimmungen"), ("translation_de_alert_text", "Wie geht es Ihnen?"),
                ("translation_de_consent_text", "Ich stimme zu."),
            ]).status == .seeOther)
            let saved = try #require(try await Study.find(study.id, on: app.db))
            #expect(saved.languages == ["en", "de"] && saved.name == "Moods")
            #expect(saved.localizedText(of: .name)?.byLanguage == ["en": "Moods", "de": "Stimmungen"])
            #expect(saved.translationProblems.isEmpty, "\(saved.translationProblems)")

            #expect(try await client.post("/studies/zwei/settings", valid + [
                ("languages", "en, de"), ("translation_de_name", "Stimmungen"), ("translation_de_consent_text", "Ich stimme zu."),
            ]).status == .seeOther, "a missing translation does not stop a save")
            let gap = try #require(try await Study.find(study.id, on: app.db))
            #expect(gap.translationProblems == ["alert_text has no text in de"])
            #expect(try await StudyReadiness.check(gap, on: app.db).blocking.contains("A translation is missing: alert_text has no text in de."))
        }
    }

    @Test("the builder edits a question's texts in each language beside the default's; translated options keep their stored value")
    func builder() async throws {
        try await withSignedInDeveloper { app, world, client in
            world.studyA.setLanguages(["en", "de"])
            try await world.studyA.save(on: app.db)
            let base = "/studies/study-a/surveys/\(world.surveyA)/questions"
            let survey = try #require(try await Survey.find(world.surveyA, on: app.db))
            let form = try await client.get("\(base)/new?type=radio_button").body.string
            #expect(form.contains(#"name="translation_de_text""#) && form.contains(#"name="translation_de_options""#))
            #expect(try await client.post("\(base)?type=radio_button", [
                ("version", "\(survey.currentVersion)"), ("question_id", "where_now"), ("text", "Where are you right now?"),
                ("options", "At home\nAt work = work"),
                ("translation_de_text", "Wo sind Sie gerade?"), ("translation_de_options", "Zu Hause\nBei der Arbeit"),
            ]).status == .seeOther)
            let document = try SurveyCatalog.document(of: try await SurveyCatalog.currentVersion(
                of: try #require(try await Survey.find(world.surveyA, on: app.db)), on: app.db))
            let question = try #require(document.question(withID: "where_now"))
            #expect(question.text.byLanguage == ["en": "Where are you right now?", "de": "Wo sind Sie gerade?"])
            #expect(question.kind.options.map(\.key) == ["At home", "work"], "what answers store is the default text or the value, as before")
            #expect(question.kind.options.map { $0.text.byLanguage["de"] } == ["Zu Hause", "Bei der Arbeit"])

            let number = document.content.count
            let again = try await client.get("\(base)/\(number)").body.string
            #expect(again.contains("Wo sind Sie gerade?") && again.contains("Zu Hause\nBei der Arbeit"), "the edit form shows the translations")
            #expect(again.contains(">At home\nAt work = work</textarea>"))

            let preview = try await client.get("/studies/study-a/surveys/\(world.surveyA)/preview?lang=de").body.string
            #expect(preview.contains(#"<html lang="de">"#) && preview.contains(htmlEscaped("Wo sind Sie gerade?")))
            #expect(!preview.contains(htmlEscaped("Where are you right now?")))
            #expect(preview.contains(#"<option value="de" selected>German (de)</option>"#))

            let gaps = try await StudyReadiness.check(world.studyA, on: app.db).blocking
            #expect(gaps.contains { $0.contains("survey “Feelings”") && $0.contains("has no text in de") },
                    "the world's other questions are English only: \(gaps)")
        }
    }
}
