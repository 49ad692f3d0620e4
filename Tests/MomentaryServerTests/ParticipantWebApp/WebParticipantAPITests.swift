import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// What the web app relies on from the API beyond the native apps: refusals that point at the
/// field or question at fault, and survey timing events stored with their response.
@Suite("Participant web app: API support")
struct WebParticipantAPITests {
    private func registrationBody(_ change: (inout RegistrationRequest) -> Void) throws -> Data {
        var request = APIFixture.registration()
        change(&request)
        return try WireCoding.makeEncoder().encode(request)
    }

    private func errorDetail(_ response: TestingHTTPResponse) throws -> APIErrorBody.Detail {
        try WireCoding.makeDecoder().decode(APIErrorBody.self, from: Data(response.body.readableBytesView)).error
    }

    @Test("a refused registration names the field or question at fault, and stores nothing")
    func refusalsPointAtTheField() async throws {
        try await withTestApp { app, _ in
            try await APIFixture.seedDemo(on: app.db)
            _ = try await APIFixture.invitationOnlyStudy(on: app.db, codes: ["BCD23"])
            let cases: [(String, (inout RegistrationRequest) -> Void, String?, String?)] = [
                ("wrong code", { $0.study = "closed"; $0.invitationCode = "ZZZ99"; $0.registrationAnswers = [] }, "invitation_code", nil),
                ("no code", { $0.study = "closed"; $0.registrationAnswers = [] }, "invitation_code", nil),
                ("too many beeps", { $0.settings.beepsPerDay = 9 }, "settings.beeps_per_day", nil),
                ("hours too short", {
                    $0.settings = SignallingSettingsRequest(beepsPerDay: 5, start: TimeOfDay(hour: 9, minute: 0)!, end: TimeOfDay(hour: 10, minute: 0)!)
                }, "settings", nil),
                ("required question skipped", { $0.registrationAnswers.removeAll { $0.questionID == "age_band" } }, nil, "age_band"),
                ("unknown study", { $0.study = "nope" }, "study", nil),
            ]
            for (name, change, field, question) in cases {
                try await app.testing().test(
                    .POST, "api/v1/participants", headers: ["Content-Type": "application/json"],
                    body: .init(data: try registrationBody(change))
                ) { response in
                    #expect(response.status.code >= 400 && response.status.code < 500, "\(name)")
                    let detail = try errorDetail(response)
                    #expect(detail.field == field, "\(name): \(detail)")
                    #expect(detail.questionID == question, "\(name): \(detail)")
                }
            }
            #expect(try await Participant.query(on: app.db).count() == 0)
        }
    }

    @Test("PUT /settings may change the time zone; an unknown zone is refused with the field named and nothing changed")
    func settingsChangeTimeZone() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (_, registration) = try await APIFixture.register(on: server)
            let basic = Data("\(registration.participantID.uuidString):\(registration.secret)".utf8).base64EncodedString()
            let headers: HTTPHeaders = ["Authorization": "Basic \(basic)", "Content-Type": "application/json"]
            func put(_ json: String) async throws -> (HTTPStatus, APIErrorBody.Detail?) {
                var result: (HTTPStatus, APIErrorBody.Detail?) = (.ok, nil)
                try await server.app.testing().test(.PUT, "api/v1/settings", headers: headers, body: .init(string: json)) { response in
                    result = (response.status, response.status == .ok ? nil : try errorDetail(response))
                }
                return result
            }
            let (status, _) = try await put(#"{"beeps_per_day": 3, "start": "09:00", "end": "21:00", "timezone": "America/Chicago"}"#)
            #expect(status == .ok)
            let moved = try #require(try await Participant.find(registration.participantID, on: server.db))
            #expect(moved.timeZone == "America/Chicago" && moved.beepsPerDay == 3)

            let (refused, detail) = try await put(#"{"beeps_per_day": 4, "start": "09:00", "end": "21:00", "timezone": "Mars/Olympus"}"#)
            #expect(refused == .unprocessableEntity)
            #expect(detail?.field == "timezone")
            let unchanged = try #require(try await Participant.find(registration.participantID, on: server.db))
            #expect(unchanged.timeZone == "America/Chicago" && unchanged.beepsPerDay == 3)
        }
    }

    @Test("a study without a survey is not ready: the join page is told, registration is refused, nothing is stored")
    func studyWithoutSurveyIsNotReady() async throws {
        try await withTestApp { app, _ in
            let study = Study(slug: "empty", name: "Empty", now: Date())
            try await study.save(on: app.db)
            var body = APIFixture.registration(study: "empty")
            body.registrationAnswers = []
            try await app.testing().test(.GET, "api/v1/studies/empty") { response in
                #expect(response.status == .ok)
                let info = try WireCoding.makeDecoder().decode(StudyInfo.self, from: Data(response.body.readableBytesView))
                #expect(info.ready == false)
            }
            try await app.testing().test(
                .POST, "api/v1/participants", headers: ["Content-Type": "application/json"],
                body: .init(data: try WireCoding.makeEncoder().encode(body))
            ) { response in
                #expect(response.status == .conflict)
                let detail = try errorDetail(response)
                #expect(detail.code == "study_not_ready")
            }
            #expect(try await Participant.query(on: app.db).count() == 0)
            #expect(try await StudyReadiness.check(study, on: app.db).blocking.count == 1)

            try await SurveyStore.create(
                studyID: try study.requireID(), kind: .esm, name: "ESM", position: 0,
                document: try SurveyStore.text(of: SampleSurveys.experienceSampling), on: app.db, now: Date())
            try await app.testing().test(.GET, "api/v1/studies/empty") { response in
                let info = try WireCoding.makeDecoder().decode(StudyInfo.self, from: Data(response.body.readableBytesView))
                #expect(info.ready)
            }
            try await app.testing().test(
                .POST, "api/v1/participants", headers: ["Content-Type": "application/json"],
                body: .init(data: try WireCoding.makeEncoder().encode(body))
            ) { #expect($0.status == .created) }
        }
    }

    @Test("timing events sent with a response are stored with it and exported in the JSON export")
    func timingsAreStored() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, _) = try await APIFixture.register(on: server)
            var submission = APIFixture.submission()
            let shown = submission.startedAt
            submission.timings = [
                SurveyTiming(questionID: "happy", event: .present, at: shown),
                SurveyTiming(questionID: "happy", event: .changed, at: shown.addingTimeInterval(2), answer: .number(70)),
                SurveyTiming(questionID: "happy", event: .unpresent, at: shown.addingTimeInterval(3), answer: .number(70)),
                SurveyTiming(questionID: nil, event: .submitted, at: submission.submittedAt),
            ]
            let receipt = try await client.submitResponse(submission)
            let stored = try #require(try await SurveyResponse.find(receipt.responseID, on: server.db)?.surveyTimings)
            let decoded = try WireCoding.makeDecoder().decode([SurveyTiming].self, from: Data(stored.utf8))
            #expect(decoded.map(\.event) == [.present, .changed, .unpresent, .submitted])
            #expect(decoded[1].answer == .number(70))

            let exported = try await exportBytes(.json, study: "demo", on: server.db).data
            let objects = try #require(try JSONSerialization.jsonObject(with: exported) as? [[String: Any]])
            let response = try #require(objects.first { $0["response_id"] as? String == receipt.responseID.uuidString.lowercased() })
            let timings = try #require(response["survey_timings"] as? [[String: Any]])
            #expect(timings.map { $0["event"] as? String } == ["present", "changed", "unpresent", "submitted"])
        }
    }

    @Test("more timing events than any survey makes are refused with the field named")
    func tooManyTimings() throws {
        var submission = APIFixture.submission()
        submission.timings = Array(repeating: SurveyTiming(questionID: "happy", event: .present, at: submission.startedAt),
                                   count: SurveyTiming.maximumCount + 1)
        #expect(throws: APIValidationError.self) { try submission.validate() }
    }
}

@Suite("Participant labels")
struct ParticipantLabelTests {
    @Test("every participant gets a short public label: the invitation code, or a fresh 5-character code in open studies")
    func labelsAreGiven() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            _ = try await APIFixture.invitationOnlyStudy(on: server.db, codes: ["BCD23"])
            let (_, open1) = try await APIFixture.register(on: server)
            let (_, open2) = try await APIFixture.register(on: server)
            var invited = APIFixture.registration(study: "closed", invitation: "bcd23")
            invited.registrationAnswers = []
            let (_, closed) = try await APIFixture.register(on: server, invited)
            let labels = try await [open1, open2, closed].asyncMap { registration in
                try #require(try await Participant.find(registration.participantID, on: server.db)?.label)
            }
            #expect(labels[2] == "BCD23")
            let alphabet = Set(SecretCode.Alphabet.unambiguous.characters)
            for label in labels[0...1] {
                #expect(label.count == 5 && label.allSatisfy(alphabet.contains), "\(label)")
            }
            #expect(Set(labels).count == 3)
        }
    }

    @Test("the migration gives existing participants labels: their code, or a fresh one, never a duplicate")
    func migrationBackfills() async throws {
        try await withTestApp { app, _ in
            try await APIFixture.seedDemo(on: app.db)
            let study = try await APIFixture.invitationOnlyStudy(on: app.db, codes: ["FGH45"])
            let invitee = try #require(try await Invitee.query(on: app.db).filter(\.$code == "FGH45").first())
            let fixture = SignallingFixture(study: study, survey: try #require(try await Survey.query(on: app.db).filter(\.$study.$id == study.requireID()).first()))
            let withCode = try await fixture.participant(on: app.db, now: Date())
            withCode.$invitee.id = try invitee.requireID()
            try await withCode.save(on: app.db)
            let withoutCode = try await fixture.participant(on: app.db, now: Date())
            // Back to the schema before labels (later migrations first), then forward again, on one
            // connection: another pooled SQLite connection may still read the old schema.
            try await app.db.transaction { db in
                try await M018_AddParticipantListIndex().revert(on: db)
                try await M017_AddParticipantLabels().revert(on: db)
                try await M017_AddParticipantLabels().prepare(on: db)
                try await M018_AddParticipantListIndex().prepare(on: db)
            }
            let labels = try await Participant.query(on: app.db).all().compactMap(\.label)
            #expect(try await Participant.find(withCode.id, on: app.db)?.label == "FGH45")
            let fresh = try #require(try await Participant.find(withoutCode.id, on: app.db)?.label)
            #expect(fresh.count == 5 && fresh != "FGH45")
            #expect(labels.count == 2)
        }
    }
}
