import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// A study in English and German, through the API and the exports: the join page's texts follow the
/// browser, a participant's language follows them into surveys, status and push texts, and every
/// response records the language it was given in.
@Suite("Multilingual studies through the API and exports")
struct LanguagesAPITests {
    static let survey = """
        {"content": [
          {"question_id": "happy", "question_type": "yes_no",
           "question_text": {"en": "Are you happy?", "de": "Sind Sie glücklich?"}},
          {"question_id": "where", "question_type": "radio_button",
           "question_text": {"en": "Where are you?", "de": "Wo sind Sie?"},
           "answers": [{"text": {"en": "At home", "de": "Zu Hause"}, "value": "home"},
                       {"text": {"en": "Elsewhere", "de": "Anderswo"}, "value": "elsewhere"}]}
        ]}
        """

    /// The study document `studies import` reads, with `change` applied to its JSON object.
    static func document(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> StudyDocument {
        var object: [String: Any] = [
            "format": StudyDocument.currentFormat, "slug": "zweisprachig", "languages": ["en", "de"],
            "name": ["en": "Moods", "de": "Stimmungen"],
            "consent_text": ["en": "I agree to take part.", "de": "Ich bin einverstanden teilzunehmen."],
            "invitation_only": false, "scheduling": "server", "random_sampling": true, "default_timezone": "Europe/Berlin",
            "min_gap_minutes": 60, "beeps_per_day": ["min": 1, "max": 5, "default": 2],
            "default_hours": ["start": "09:00", "end": "21:00"],
            "alert_text": ["en": "How do you feel?", "de": "Wie fühlen Sie sich?"], "sounds": ["default"], "max_due_at_once": 1000,
            "reminder_alert_text": ["en": "Still time to answer", "de": "Noch Zeit zu antworten"],
            "surveys": [["name": "Moment", "kind": "esm", "position": 0, "active": true,
                         "document": try JSONSerialization.jsonObject(with: Data(survey.utf8))]],
        ]
        change(&object)
        return try StudyDocument.decode(try JSONSerialization.data(withJSONObject: object))
    }

    static func registration(language: String?) -> RegistrationRequest {
        var request = RegistrationRequest(
            study: "zweisprachig", consent: true, timezone: "Europe/Vienna", settings: .standard, push: .none,
            device: DeviceInfo(model: "Test phone", os: "TestOS 1", appVersion: "1.0"))
        request.language = language
        return request
    }

    @Test("the join page's texts follow Accept-Language or ?lang=; a malformed lang is a 400")
    func studyInfo() async throws {
        try await withRunningServer { server in
            _ = try await StudyTransfer.importStudy(try Self.document(), on: server.db, now: Date())
            let tester = try server.app.testing()
            try await tester.test(.GET, "api/v1/studies/zweisprachig", headers: ["Accept-Language": "de-AT,de;q=0.9,en;q=0.5"]) { response in
                let info = try WireCoding.makeDecoder().decode(StudyInfo.self, from: Data(response.body.readableBytesView))
                #expect(info.language == "de" && info.languages == ["en", "de"])
                #expect(info.name == "Stimmungen" && info.consentText == "Ich bin einverstanden teilzunehmen.")
                #expect(info.ready)
            }
            let english = try await server.client().studyInfo(slug: "zweisprachig", language: "en")
            #expect(english.language == "en" && english.consentText == "I agree to take part.")
            let unknown = try await server.client().studyInfo(slug: "zweisprachig", language: "fr")
            #expect(unknown.language == "en", "a language the study lacks gets the default")
            try await tester.test(.GET, "api/v1/studies/zweisprachig?lang=de_DE") { response in
                #expect(response.status == .badRequest)
                #expect(response.body.string.contains("\"field\":\"lang\""), "\(response.body.string)")
            }
        }
    }

    @Test("a participant's language: checked at registration, used for surveys, status and push, changed in settings")
    func participantLanguage() async throws {
        try await withRunningServer { server in
            _ = try await StudyTransfer.importStudy(try Self.document(), on: server.db, now: Date())
            await #expect(throws: MomentaryClientError.self) {
                _ = try await server.client().register(Self.registration(language: "fr"))
            }
            #expect(try await Participant.query(on: server.db).count() == 0, "a refused language stores nothing")

            let registered = try await server.client().register(Self.registration(language: "de"))
            let client = server.client(ParticipantCredentials(participantID: registered.participantID, secret: registered.secret))
            #expect(registered.study.name == "Stimmungen")
            let german = try await client.volunteerSurvey()
            let document = try SurveyDocument(json: german.document)
            #expect(document.content.map(\.text.text) == ["Sind Sie glücklich?", "Wo sind Sie?"])
            #expect(document.content[1].kind.options.map(\.key) == ["home", "elsewhere"], "stored values stay the same")
            #expect(document.content[1].kind.options.map(\.text.text) == ["Zu Hause", "Anderswo"])
            let status = try await client.status()
            #expect(status.language == "de")
            #expect(status.message?.hasPrefix("Willkommen! Ihre Fragen kommen zwischen") == true, "\(status.message ?? "")")

            let participant = try #require(try await Participant.find(registered.participantID, on: server.db))
            let signalling = try #require(try await StudySignalling.load([participant.$study.id], on: server.db)[participant.$study.id])
            #expect(signalling.alert(for: participant) == "Wie fühlen Sie sich?")
            #expect(signalling.alert(for: participant, reminder: true) == "Noch Zeit zu antworten")

            let answered = ResponseSubmission(
                idempotencyKey: "de-1", surveyVersion: german.version, startedAt: Date().addingTimeInterval(-20), submittedAt: Date(),
                answers: [SubmittedAnswer(questionID: "happy", answer: .bool(true)), SubmittedAnswer(questionID: "where", answer: .string("home"))])
            _ = try await client.submitResponse(answered)

            var update = SettingsUpdate(settings: .standard)
            update.language = "FR"
            await #expect(throws: MomentaryClientError.self) { try await client.updateSettings(update) }
            update.language = "EN"
            try await client.updateSettings(update)
            #expect(try await client.status().language == "en", "stored as the study writes it")
            let english = try SurveyDocument(json: try await client.volunteerSurvey().document)
            #expect(english.content[0].text.text == "Are you happy?")
            var second = answered
            second.idempotencyKey = "en-1"
            _ = try await client.submitResponse(second)

            let long = try CSVReader.records(try await exportText(.long, study: "zweisprachig", on: server.db))
            let column = try #require(long[0].firstIndex(of: "language"))
            #expect(Set(long.dropFirst().map { $0[column] }) == ["de", "en"])
            let codebook = try CSVReader.records(try await exportText(.codebook, study: "zweisprachig", on: server.db))
            let header = codebook[0]
            #expect(header.suffix(4) == ["question_text_de", "option_label_de", "min_label_de", "max_label_de"])
            let home = try #require(codebook.first { $0.contains("home") })
            #expect(home[header.firstIndex(of: "option_label")!] == "At home")
            #expect(home[header.firstIndex(of: "option_label_de")!] == "Zu Hause")
            #expect(home[header.firstIndex(of: "question_text_de")!] == "Wo sind Sie?")
        }
    }

    @Test("import refuses a study missing a translation, naming each text; readiness does the same for later edits")
    func gaps() async throws {
        let missing = try Self.document { object in
            object["consent_text"] = "I agree to take part."
            object["languages"] = ["en", "de", "ja"]
        }
        let problems = missing.problems()
        #expect(problems.contains("consent_text has no text in de, ja"), "\(problems)")
        #expect(problems.contains { $0.contains("no catalogue for “ja”") }, "\(problems)")
        #expect(problems.contains { $0.contains("survey “Moment”: Question 1 (“happy”): question_text has no text in ja") }, "\(problems)")

        try await withRunningServer { server in
            await #expect(throws: CommandFailure.self) { _ = try await StudyTransfer.importStudy(missing, on: server.db, now: Date()) }
            #expect(try await Study.query(on: server.db).count() == 0)

            let study = try await StudyTransfer.importStudy(try Self.document(), on: server.db, now: Date())
            #expect(try await StudyReadiness.check(study, on: server.db).isReady)
            let survey = try #require(try await Survey.query(on: server.db).first())
            let english = Self.survey.replacingOccurrences(of: #", "de": "Wo sind Sie?""#, with: "")
            try await SurveyStore.saveVersion(
                of: survey, document: english, authorID: nil, basedOn: survey.currentVersion, on: server.db, now: Date())
            let readiness = try await StudyReadiness.check(study, on: server.db)
            #expect(readiness.blocking == ["A translation is missing in survey “Moment”: Question 2 (“where”): question_text has no text in de."])
            await #expect(throws: MomentaryClientError.self) {
                _ = try await server.client().register(Self.registration(language: "de"))
            }
        }
    }

    @Test("a study document round-trips its languages and translations")
    func roundTrip() async throws {
        try await withRunningServer { server in
            let original = try Self.document()
            let study = try await StudyTransfer.importStudy(original, on: server.db, now: Date())
            let exported = try await StudyTransfer.export(study, on: server.db)
            #expect(exported.languages == ["en", "de"])
            #expect(exported.consentText == original.consentText)
            #expect(exported.alertText == original.alertText && exported.reminderAlertText == original.reminderAlertText)
            #expect(study.consentText == "I agree to take part.", "the default language's text stays in its column")
        }
    }
}

/// The join page checks a typed invitation code before the participant goes on.
@Suite("Participant API: checking an invitation code")
struct InvitationCheckTests {
    @Test("an unused code is 204; a used, unknown or restricted one gets registration's own refusal; nothing changes")
    func check() async throws {
        try await withRunningServer { server in
            _ = try await APIFixture.invitationOnlyStudy(on: server.db, codes: ["FRESH", "TAKEN"])
            let tester = try server.app.testing()
            try await tester.test(.GET, "api/v1/studies/closed/invitations/fresh") { response in
                #expect(response.status == .noContent, "codes compare without case, as at registration")
            }
            let taken = try #require(try await Invitee.query(on: server.db).filter(\.$code == "TAKEN").first())
            taken.status = .participating
            try await taken.save(on: server.db)
            try await tester.test(.GET, "api/v1/studies/closed/invitations/TAKEN") { response in
                #expect(response.status == .forbidden)
                #expect(response.body.string.contains("invitation_invalid") && response.body.string.contains("already been used"))
            }
            try await tester.test(.GET, "api/v1/studies/closed/invitations/NOPE") { response in
                #expect(response.status == .forbidden)
                #expect(response.body.string.contains("is not valid for this study"))
            }
            try await tester.test(.GET, "api/v1/studies/nowhere/invitations/FRESH") { response in
                #expect(response.status == .notFound)
            }
            let fresh = try #require(try await Invitee.query(on: server.db).filter(\.$code == "FRESH").first())
            #expect(fresh.status == .invited, "a check claims nothing")
        }
    }

    @Test("at most 30 checks per address in ten minutes, then 429 with Retry-After")
    func limited() async throws {
        try await withRunningServer { server in
            _ = try await APIFixture.invitationOnlyStudy(on: server.db, codes: ["FRESH"])
            let tester = try server.app.testing()
            for _ in 0..<RegistrationLimits.invitationChecksPerAddress {
                try await tester.test(.GET, "api/v1/studies/closed/invitations/WRONG") { response in
                    #expect(response.status == .forbidden)
                }
            }
            try await tester.test(.GET, "api/v1/studies/closed/invitations/FRESH") { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers.first(name: "Retry-After") == "600")
            }
        }
    }
}

/// Refusals a participant reads come in the language the app asks for (`Accept-Language`).
@Suite("Participant API: refusals in the participant's language")
struct LocalizedRefusalTests {
    @Test("an invitation refusal in German for a German app, in English otherwise; code and field the same")
    func invitation() async throws {
        try await withRunningServer { server in
            _ = try await APIFixture.invitationOnlyStudy(on: server.db, codes: ["FRESH"])
            let tester = try server.app.testing()
            try await tester.test(.GET, "api/v1/studies/closed/invitations/NOPE", headers: ["Accept-Language": "de-AT"]) { response in
                let detail = try WireCoding.makeDecoder().decode(APIErrorBody.self, from: Data(response.body.readableBytesView)).error
                #expect(detail.code == "invitation_invalid" && detail.field == "invitation_code")
                #expect(detail.message == "Der Einladungscode „NOPE“ gilt nicht für diese Studie.")
            }
            try await tester.test(.GET, "api/v1/studies/closed/invitations/NOPE", headers: ["Accept-Language": "ja, en;q=0.5"]) { response in
                #expect(response.body.string.contains("The invitation code “NOPE” is not valid for this study."))
            }
        }
    }

    @Test("a paused participant is told so in Arabic; the personal page's error in Dutch")
    func paused() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (_, registered) = try await APIFixture.register(on: server)
            let participant = try #require(try await Participant.find(registered.participantID, on: server.db))
            participant.status = .restricted
            try await participant.save(on: server.db)
            let basic = Data("\(registered.participantID.uuidString.lowercased()):\(registered.secret)".utf8).base64EncodedString()
            let tester = try server.app.testing()
            try await tester.test(.GET, "api/v1/survey", headers: ["Authorization": "Basic \(basic)", "Accept-Language": "ar"]) { response in
                #expect(response.status == .forbidden)
                #expect(response.body.string.contains("أوقف الباحثون مشاركتك في هذه الدراسة مؤقتًا."), "\(response.body.string)")
            }
            try await tester.test(.GET, "my/unknowncode", headers: ["Accept": "text/html", "Accept-Language": "nl"]) { response in
                #expect(response.status == .notFound)
                #expect(response.body.string.contains(#"<html lang="nl" dir="ltr">"#) && response.body.string.contains("De Momentary-app openen"))
            }
        }
    }
}
