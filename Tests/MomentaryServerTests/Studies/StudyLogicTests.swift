import Fluent
import Foundation
import Logging
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// Participant variables, scores, piped texts and random order as a participant and a researcher
/// meet them: set at registration, by the research API and on the website; sent with the survey
/// the app shows; honoured by the server's check of the answers; stored and exported.
@Suite("Study logic: participant variables, scores and random order end to end", .serialized)
struct StudyLogicTests {
    static let registration = #"""
        {"content": [
          {"question_id": "partner", "question_type": "free_response", "question_text": "Your partner's first name?"},
          {"question_id": "baseline_q", "question_type": "number", "question_text": "How stressed are you usually (1-5)?", "min": 1, "max": 5}
        ]}
        """#

    static let feelings = #"""
        {"content": [
          {"question_id": "pa1", "question_type": "slider", "question_text": "Happy?", "min": 1, "max": 5},
          {"question_id": "pa2", "question_type": "slider", "question_text": "Calm?", "min": 1, "max": 5},
          {"question_id": "close", "question_type": "slider", "question_text": "How close do you feel to {{var:partner_name|else:your partner}}?", "min": 0, "max": 10},
          {"question_id": "stress", "question_type": "free_response", "question_text": "What stresses you?", "display_if": {">=": ["var:baseline", 4]}}
        ],
        "scores": [{"id": "pa_mean", "mean": ["pa1", "pa2"], "reverse": ["pa2"]}],
        "randomize_groups": [["pa1", "pa2"]]}
        """#

    struct World {
        let study: Study
        let token: String
    }

    static func world(on app: Application) async throws -> World {
        let world = try await WebsiteWorld.make(on: app.db)
        let now = Date()
        let study = try await StudyTransfer.create(slug: "logic", name: "Logic", invitationOnly: false, deviceScheduled: false, on: app.db, now: now)
        study.setText("I agree to take part.", of: .consentText)
        study.participantVariables = [
            ParticipantVariableDefinition(id: "partner_name", type: .text, label: "Partner's first name", fromRegistration: "partner"),
            ParticipantVariableDefinition(id: "baseline", type: .number, label: "Usual stress", fromRegistration: "baseline_q"),
            ParticipantVariableDefinition(id: "clinic", type: .text, label: "Clinic (not used by the surveys)"),
        ]
        try await study.save(on: app.db)
        let studyID = try study.requireID()
        try await SurveyStore.create(studyID: studyID, kind: .esm, name: "Feelings", position: 0, document: feelings, on: app.db, now: now)
        try await SurveyStore.create(studyID: studyID, kind: .registration, name: "Intake", position: 1, document: registration, on: app.db, now: now)
        _ = world
        let developer = try #require(try await Researcher.query(on: app.db).filter(\.$email == WebsiteWorld.developer).first())
        let token = try await AccessTokens.create(
            for: developer, name: "script", studySlugs: [], expiresInDays: nil, readOnly: false, on: app.db, now: now).secret
        return World(study: study, token: token)
    }

    /// Registers with the registration answers given; returns the participant's id, secret and label.
    static func register(_ app: Application, partner: String, baseline: Double) async throws -> (id: UUID, secret: String, label: String) {
        let request = RegistrationRequest(
            study: "logic", invitationCode: nil, consent: true, timezone: "Europe/Berlin", settings: .standard, push: .none,
            registrationAnswers: [SubmittedAnswer(questionID: "partner", answer: .string(partner)), SubmittedAnswer(questionID: "baseline_q", answer: .number(baseline))],
            device: DeviceInfo(model: "Test phone", os: "TestOS 1", appVersion: "1.0"))
        let response = try await send(app, .POST, "/api/v1/participants", body: try WireCoding.makeEncoder().encode(request))
        #expect(response.status == .created || response.status == .ok, "\(response.body.string)")
        let registered = try WireCoding.makeDecoder().decode(RegistrationResponse.self, from: Data(buffer: response.body))
        let participant = try #require(try await Participant.find(registered.participantID, on: app.db))
        return (registered.participantID, registered.secret, try #require(participant.label))
    }

    static func send(
        _ app: Application, _ method: HTTPMethod, _ path: String, body: Data? = nil, headers extra: [String: String] = [:]
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders([("Content-Type", "application/json")])
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        return try await app.testing().sendRequest(method, path, headers: headers, body: body.map { ByteBuffer(data: $0) })
    }

    static func basic(_ id: UUID, _ secret: String) -> [String: String] {
        ["Authorization": "Basic " + Data("\(id.uuidString.lowercased()):\(secret)".utf8).base64EncodedString()]
    }

    static func submission(_ delivery: SurveyDelivery, _ answers: [String: JSONValue], order: [String]?) -> Data {
        let submission = ResponseSubmission(
            idempotencyKey: UUID().uuidString, surveyID: delivery.surveyID, surveyVersion: delivery.version,
            startedAt: Date().addingTimeInterval(-60), submittedAt: Date().addingTimeInterval(-5),
            answers: answers.sorted { $0.key < $1.key }.map { SubmittedAnswer(questionID: $0.key, answer: $0.value) },
            presentedOrder: order)
        return (try? WireCoding.makeEncoder().encode(submission)) ?? Data()
    }

    @Test("registration answers set variables; the app is sent the ones its survey names; the server honours var: conditions; scores and the order shown are stored and exported")
    func participantJourney() async throws {
        try await withTestApp { app, _ in
            let world = try await Self.world(on: app)
            let (id, secret, _) = try await Self.register(app, partner: "  Alex ", baseline: 4)
            let participant = try #require(try await Participant.find(id, on: app.db))
            #expect(participant.variables == ["partner_name": .string("Alex"), "baseline": .number(4)])

            let delivered = try await Self.send(app, .GET, "/api/v1/survey", headers: Self.basic(id, secret))
            #expect(delivered.status == .ok)
            let delivery = try WireCoding.makeDecoder().decode(SurveyDelivery.self, from: Data(buffer: delivered.body))
            // Only what the survey names: not the clinic.
            #expect(delivery.variables == ["partner_name": .string("Alex"), "baseline": .number(4)])
            #expect(delivery.document.objectValue?["scores"] != nil && delivery.document.objectValue?["randomize_groups"] != nil)

            // Baseline 4 shows the stress question; an order that moves a question out of its group is refused.
            let moved = try await Self.send(app, .POST, "/api/v1/responses", body: Self.submission(
                delivery, ["pa1": .number(4), "pa2": .number(2)], order: ["close", "pa1", "pa2", "stress"]), headers: Self.basic(id, secret))
            #expect(moved.status == .unprocessableEntity)
            #expect(moved.body.string.contains("presented_order"))
            let stored = try await Self.send(app, .POST, "/api/v1/responses", body: Self.submission(
                delivery, ["pa1": .number(4), "pa2": .number(2), "close": .number(8), "stress": .string("work")], order: ["pa2", "pa1", "close", "stress"]),
                headers: Self.basic(id, secret))
            #expect(stored.status == .created, "\(stored.body.string)")
            let response = try #require(try await SurveyResponse.query(on: app.db).filter(\.$participant.$id == id).first())
            // pa2 reversed over 1–5: 6 − 2 = 4; mean of 4 and 4.
            #expect(response.scores == #"{"pa_mean":4}"#)
            #expect(response.presentedOrder == #"["pa2","pa1","close","stress"]"#)

            // The researcher lowers the baseline: the stress question is hidden, and an answer to it refused.
            let lowered = try await Self.send(app, .POST, "/api/v1/research/studies/logic/participants/\(participant.label!)/variables",
                body: Data(#"{"variables": {"baseline": 2, "clinic": "North"}}"#.utf8), headers: ["Authorization": "Bearer \(world.token)"])
            #expect(lowered.status == .ok, "\(lowered.body.string)")
            #expect(lowered.body.string.contains(#""clinic":"North""#))
            let hidden = try await Self.send(app, .POST, "/api/v1/responses", body: Self.submission(
                delivery, ["pa1": .number(3), "stress": .string("work")], order: nil), headers: Self.basic(id, secret))
            #expect(hidden.status == .unprocessableEntity)
            #expect(hidden.body.string.contains("hidden by its display logic"))

            // The wide export: the score, the order shown and each variable as columns.
            let (_, rows) = try CSVReader.rows(try await exportText(.wide, study: "logic", on: app.db))
            let row = try #require(rows.first)
            let cell = { (name: String) in row[name] }
            #expect(cell("pa_mean") == "4")
            #expect(cell("presented_order") == #"["pa2","pa1","close","stress"]"#)
            #expect(cell("var_partner_name") == "Alex")
            #expect(cell("var_baseline") == "2")
            #expect(cell("var_clinic") == "North")
            let codebook = try await exportText(.codebook, study: "logic", on: app.db)
            #expect(codebook.contains(#"pa_mean,score,"mean of pa1, pa2 (pa2 reversed)""#), "\(codebook)")
            let json = try await exportText(.json, study: "logic", on: app.db)
            #expect(json.contains(#""scores":{"pa_mean":4}"#))
        }
    }

    @Test("an alert rule may test a score and a participant variable")
    func alertOnScoreAndVariable() async throws {
        try await withTestApp { app, _ in
            let world = try await Self.world(on: app)
            let developer = try #require(try await Researcher.query(on: app.db).filter(\.$email == WebsiteWorld.developer).first()).requireID()
            let condition = #"{"and": [{">=": ["pa_mean", 4]}, {">=": ["var:baseline", 4]}]}"#
            _ = try await AlertRules.create(
                .init(kind: .response, surveyName: "Feelings", condition: condition, includeAnswers: false, recipients: [developer]),
                in: world.study, by: WebsiteWorld.developer, on: app.db, now: Date().addingTimeInterval(-60))
            let (id, secret, label) = try await Self.register(app, partner: "Alex", baseline: 4)
            let delivered = try await Self.send(app, .GET, "/api/v1/survey", headers: Self.basic(id, secret))
            let delivery = try WireCoding.makeDecoder().decode(SurveyDelivery.self, from: Data(buffer: delivered.body))
            let high: [String: JSONValue] = ["pa1": .number(4), "pa2": .number(2)]
            #expect(try await Self.send(app, .POST, "/api/v1/responses", body: Self.submission(delivery, high, order: nil), headers: Self.basic(id, secret)).status == .created)
            let logger = Logger(label: "study-logic-alerts")
            #expect(await AlertChecker.run(on: app.db, now: Date().addingTimeInterval(1), mail: app.mail, logger: logger) == 1)

            // The same answers from a participant whose baseline is now lower raise nothing.
            let lowered = try await Self.send(app, .POST, "/api/v1/research/studies/logic/participants/\(label)/variables",
                body: Data(#"{"variables": {"baseline": 2}}"#.utf8), headers: ["Authorization": "Bearer \(world.token)"])
            #expect(lowered.status == .ok)
            #expect(try await Self.send(app, .POST, "/api/v1/responses", body: Self.submission(delivery, high, order: nil), headers: Self.basic(id, secret)).status == .created)
            #expect(await AlertChecker.run(on: app.db, now: Date().addingTimeInterval(2), mail: app.mail, logger: logger) == 0)
        }
    }

    @Test("the research API refuses unknown variables, wrong kinds and overlong texts, storing nothing; null clears")
    func researchAPIRefusals() async throws {
        try await withTestApp { app, _ in
            let world = try await Self.world(on: app)
            let (id, _, label) = try await Self.register(app, partner: "Sam", baseline: 3)
            let path = "/api/v1/research/studies/logic/participants/\(label)/variables"
            let bearer = ["Authorization": "Bearer \(world.token)"]
            for (body, words) in [
                (#"{"variables": {"mood": 1}}"#, "“mood” is not one of the study's participant variables"),
                (#"{"variables": {"baseline": "high"}}"#, "is not a number"),
                (#"{"variables": {"partner_name": 7}}"#, "give it a text"),
                (#"{"variables": {"partner_name": "\#(String(repeating: "x", count: 501))"}}"#, "at most 500 characters"),
            ] {
                let refused = try await Self.send(app, .POST, path, body: Data(body.utf8), headers: bearer)
                #expect(refused.status == .unprocessableEntity)
                #expect(refused.body.string.contains(words), "\(refused.body.string)")
            }
            let unknownField = try await Self.send(app, .POST, path, body: Data(#"{"variable": {}}"#.utf8), headers: bearer)
            #expect(unknownField.status == .badRequest)
            #expect(try await Participant.find(id, on: app.db)?.variables == ["partner_name": .string("Sam"), "baseline": .number(3)])
            let cleared = try await Self.send(app, .POST, path, body: Data(#"{"variables": {"partner_name": null}}"#.utf8), headers: bearer)
            #expect(cleared.status == .ok)
            #expect(try await Participant.find(id, on: app.db)?.variables == ["baseline": .number(3)])
        }
    }

    @Test("the website defines variables and sets a participant's values; a survey naming an unknown variable blocks the study")
    func website() async throws {
        try await withTestApp { app, _ in
            _ = try await Self.world(on: app)
            let (id, _, _) = try await Self.register(app, partner: "Kim", baseline: 1)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let definitions = "/studies/logic/participant-variables"
            let page = try await client.get(definitions)
            #expect(page.status == .ok)
            #expect(page.body.string.contains(#"value="partner_name""#))

            // Removing a variable the survey uses is refused, with the reason.
            let removing = try await client.post(definitions, [
                ("id0", "partner_name"), ("type0", "text"), ("label0", "Partner"), ("from0", "partner"),
                ("id1", ""), ("type1", "number"), ("label1", ""), ("from1", ""),
            ])
            #expect(removing.status == .unprocessableEntity)
            #expect(removing.body.string.contains("uses the participant variable “baseline”, which the study does not keep"))
            let badID = try await client.post(definitions, [
                ("id0", "partner_name"), ("type0", "text"), ("label0", "Partner"), ("from0", "partner"),
                ("id1", "baseline"), ("type1", "number"), ("label1", "Usual stress"), ("from1", "partner"),
                ("id2", "2nd clinic"), ("type2", "text"), ("label2", "Clinic"), ("from2", ""),
            ])
            #expect(badID.status == .unprocessableEntity)
            #expect(badID.body.string.contains("its id must be a plain name"))
            #expect(badID.body.string.contains("a free_response question, whose answer is not a number"))
            let saved = try await client.post(definitions, [
                ("id0", "partner_name"), ("type0", "text"), ("label0", "Partner"), ("from0", "partner"),
                ("id1", "baseline"), ("type1", "number"), ("label1", "Usual stress"), ("from1", "baseline_q"),
                ("id2", "room"), ("type2", "number"), ("label2", "Room"), ("from2", ""),
            ])
            #expect(saved.status == .seeOther)
            #expect(try await Study.query(on: app.db).filter(\.$slug == "logic").first()?.participantVariables.map(\.id) == ["partner_name", "baseline", "room"])

            let values = "/studies/logic/participants/\(id)/variables"
            #expect(try await client.get(values).body.string.contains(#"value="Kim""#))
            let wrong = try await client.post(values, [("value0", "Kim"), ("value1", "1"), ("value2", "twelve")])
            #expect(wrong.status == .unprocessableEntity)
            #expect(wrong.body.string.contains("“room” is a number variable"))
            #expect(try await client.post(values, [("value0", ""), ("value1", "2.5"), ("value2", "12")]).status == .seeOther)
            #expect(try await Participant.find(id, on: app.db)?.variables == ["baseline": .number(2.5), "room": .number(12)])

            // An observer may look but not set.
            var observer = WebClient(app)
            _ = try await observer.signIn(WebsiteWorld.observer)
            #expect(try await observer.get(values).status == .ok)
            #expect(try await observer.post(values, [("value1", "5")]).status == .forbidden)

            let study = try #require(try await Study.query(on: app.db).filter(\.$slug == "logic").first())
            study.participantVariables = study.participantVariables.filter { $0.id != "baseline" }
            try await study.save(on: app.db)
            let readiness = try await StudyReadiness.check(study, on: app.db)
            #expect(readiness.blocking.contains { $0.contains("Survey “Feelings” uses the participant variable “baseline”") })
        }
    }

    @Test("a study document carries participant variables and refuses unknown fields in them; erasing a participant erases their variables")
    func documentAndErasure() async throws {
        try await withTestApp { app, _ in
            let world = try await Self.world(on: app)
            let document = try await StudyTransfer.export(world.study, on: app.db)
            #expect(document.participantVariables?.map(\.id) == ["partner_name", "baseline", "clinic"])
            let copy = try await StudyTransfer.importStudy(document, slug: "logic-copy", on: app.db, now: Date())
            #expect(copy.participantVariables == world.study.participantVariables)
            var text = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)
            text = text.replacingOccurrences(of: #""from_registration":"partner""#, with: #""from_registration":"partner","form":1"#)
            #expect(StudyDocument.unknownFields(in: Data(text.utf8)).contains("participant_variables[0].form"))

            let (id, _, _) = try await Self.register(app, partner: "Robin", baseline: 2)
            let participant = try #require(try await Participant.find(id, on: app.db))
            try await ParticipantAdministration.erase(
                participant, history: .keep, blobs: BlobStore(dataDirectory: try TestScratch.folder("logic-blobs")), on: app.db, now: Date())
            #expect(try await Participant.find(id, on: app.db)?.variablesJSON == nil)
        }
    }
}
