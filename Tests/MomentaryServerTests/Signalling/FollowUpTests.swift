import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import SQLKit
import Testing

/// Follow-up questionnaires (`follow_ups`) as a participant and a researcher meet them: an answer
/// that meets a rule brings a beep of the follow-up survey, once, linked to the response.
@Suite("Signalling: follow-up questionnaires", .serialized)
struct FollowUpTests {
    static let london = "Europe/London"
    static let noon = instant("2026-06-10", "12:00", in: london)

    /// Rule 0: happy ≥ 80 → "Coping" 30 minutes later, 20 minutes to answer, within the hours.
    /// Rule 1: happy ≤ 10 → "Coping" at once, whatever the hours.
    static let rules: JSONValue = .array([
        .object(["when": .object([">=": .array([.string("happy"), .number(80)])]), "survey": .string("Coping"),
                 "after_minutes": .number(30), "answer_window_minutes": .number(20)]),
        .object(["when": .object(["<=": .array([.string("happy"), .number(10)])]), "survey": .string("Coping"),
                 "after_minutes": .number(0), "respect_hours": .bool(false)]),
    ])

    struct World {
        let server: RunningServer
        let clock: ManualTimeSource
        let channel: RecordingChannel
        let client: MomentaryAPIClient
        let participantID: UUID
        let copingID: UUID
        var db: any Database { server.db }

        /// Answers the demo's beep survey (version 2, with the rules) with `happy` as given.
        @discardableResult
        func answer(happy: Double, key: String = UUID().uuidString) async throws -> ResponseReceipt {
            var submission = APIFixture.submission(key: key)
            submission.surveyVersion = 2
            submission.startedAt = clock.now().addingTimeInterval(-60)
            submission.submittedAt = clock.now().addingTimeInterval(-10)
            submission.answers = submission.answers.map {
                $0.questionID == "happy" ? SubmittedAnswer(questionID: "happy", answer: .number(happy)) : $0
            }
            return try await client.submitResponse(submission)
        }

        func followUps() async throws -> [Beep] {
            try await Beep.query(on: db).filter(\.$origin == .followUp).sort(\.$scheduledAt).all()
        }

        func dispatcher() throws -> SignalDispatcher { try #require(server.app.signalling.dispatcher) }
    }

    /// The demo study with a second beep survey, "Coping", and the rules added to its first
    /// survey as version 2; a participant registered at `start` with no push address of their own.
    static func withWorld(at start: Date = noon, _ body: (World) async throws -> Void) async throws {
        let clock = ManualTimeSource(now: start)
        try await withRunningServer(timeSource: clock) { server in
            let app = server.app
            try await APIFixture.seedDemo(on: app.db)
            let demo = try #require(try await Study.query(on: app.db).filter(\.$slug == "demo").first())
            let studyID = try demo.requireID()
            let coping = try await SurveyStore.add(
                kind: .esm, name: "Coping", document: try SurveyStore.text(of: SampleSurveys.experienceSampling),
                toStudy: studyID, authorID: nil, on: app.db, now: start)
            let feelings = try #require(try await SurveyCatalog.defaultExperienceSurvey(of: studyID, on: app.db))
            var document = SampleSurveys.experienceSampling
            document.extraFields[SurveyDocument.followUpsField] = rules
            #expect(document.problems().isEmpty)
            try await SurveyStore.saveVersion(of: feelings, document: try SurveyStore.text(of: document), authorID: nil, on: app.db, now: start)
            #expect(try await StudyReadiness.check(demo, on: app.db).isReady)

            let channel = RecordingChannel(name: "none", clock: clock)
            app.signalling.install(
                channels: PushChannelRegistry([channel]), timeSource: clock,
                options: SignalDispatcherOptions(workerID: "follow-ups", maximumSleep: 86_400, randomness: .seeded(3)))
            let (client, registered) = try await APIFixture.register(on: server)
            try await body(World(
                server: server, clock: clock, channel: channel, client: client,
                participantID: registered.participantID, copingID: try coping.requireID()))
        }
    }

    @Test("an answer meeting a rule plans one beep of the follow-up survey at +30 minutes, linked to it; others plan none")
    func plansOneLinkedBeep() async throws {
        try await Self.withWorld { world in
            try await world.answer(happy: 50)
            #expect(try await world.followUps().isEmpty, "no rule is met")

            let receipt = try await world.answer(happy: 90, key: "upload-1")
            let beeps = try await world.followUps()
            try #require(beeps.count == 1)
            let beep = beeps[0]
            #expect(beep.status == .pending)
            #expect(beep.$participant.id == world.participantID)
            #expect(beep.$survey.id == world.copingID)
            #expect(beep.triggerResponseID == receipt.responseID)
            #expect(beep.triggerRule == 0)
            #expect(beep.scheduledAt == Self.noon.addingTimeInterval(30 * 60), "30 minutes after the answer arrived")
            #expect(beep.answerWindowMinutes == 20)
            #expect(beep.ignoresHours == nil, "the hours are respected unless the rule says otherwise")
            #expect(beep.timeZone == Self.london)
            #expect(beep.localDate == "2026-06-10")
        }
    }

    @Test("participants are not shown which answers bring a follow-up")
    func rulesAreNotDelivered() async throws {
        try await Self.withWorld { world in
            let delivered = try await world.client.volunteerSurvey()
            #expect(delivered.version == 2)
            #expect(delivered.document.objectValue?["content"] != nil)
            #expect(delivered.document.objectValue?["follow_ups"] == nil)
        }
    }

    @Test("a re-uploaded response plans nothing more")
    func reuploadPlansNothing() async throws {
        try await Self.withWorld { world in
            let first = try await world.answer(happy: 95, key: "same-upload")
            world.clock.advance(by: 60)
            let again = try await world.answer(happy: 95, key: "same-upload")
            #expect(again.responseID == first.responseID)
            #expect(try await world.followUps().count == 1)
            // Two answers, two follow-ups, numbered one after the other on the day.
            try await world.answer(happy: 95, key: "another-upload")
            let beeps = try await world.followUps()
            #expect(beeps.count == 2)
            #expect(beeps.map(\.sequence) == [0, 1])
            #expect(Set(beeps.compactMap(\.triggerResponseID)).count == 2)
        }
    }

    @Test("after_minutes 0: the answer wakes a sleeping dispatcher, which sends the follow-up at once")
    func atOnceWakesTheDispatcher() async throws {
        try await Self.withWorld { world in
            await world.server.app.signalling.start()
            defer { Task { await world.server.app.signalling.shutdown() } }
            try await eventually("the dispatcher sleeps until a later beep") { world.clock.earliestDeadline != nil }
            let receipt = try await world.answer(happy: 5)
            let beep = try #require(try await world.followUps().first)
            #expect(beep.scheduledAt == Self.noon)
            #expect(beep.triggerResponseID == receipt.responseID)
            #expect(beep.triggerRule == 1)
            let beepID = try beep.requireID()
            try await eventually("the follow-up is sent without the clock moving") {
                try await Beep.find(beepID, on: world.db)?.status == .sent
            }
            #expect(world.channel.beepIDs.filter { $0 == beepID }.count == 1)
            // The app asks for the beep's survey: the follow-up survey.
            let delivery = try await world.client.survey(forBeep: beepID)
            #expect(delivery.surveyID == world.copingID)
            await world.server.app.signalling.shutdown()
        }
    }

    @Test("due outside the participant's hours it is missed, not sent; a rule that ignores the hours is sent")
    func hours() async throws {
        // 21:50: the 30-minute follow-up falls due at 22:20, after the hours (08:00–22:00).
        try await Self.withWorld(at: instant("2026-06-10", "21:50", in: Self.london)) { world in
            try await world.answer(happy: 90)
            let late = try #require(try await world.followUps().first)
            world.clock.set(late.scheduledAt)
            try await world.dispatcher().runCycle()
            let missed = try #require(try await Beep.find(late.requireID(), on: world.db))
            #expect(missed.status == .missed)
            #expect(missed.deliveryOutcome == "outside_hours")
            #expect(!world.channel.beepIDs.contains(try late.requireID()))

            // 22:20, after the hours: a rule with "respect_hours": false still sends.
            try await world.answer(happy: 3)
            let ignoring = try #require(try await world.followUps().last)
            #expect(ignoring.ignoresHours == true)
            try await world.dispatcher().runCycle()
            #expect(try await Beep.find(ignoring.requireID(), on: world.db)?.status == .sent)
            #expect(world.channel.beepIDs.contains(try ignoring.requireID()))
        }
    }

    @Test("replanning after new settings leaves a follow-up where it is; withdrawing cancels it")
    func plannerLeavesFollowUps() async throws {
        try await Self.withWorld { world in
            try await world.answer(happy: 90)
            let planned = try #require(try await world.followUps().first)
            try await BeepPlanner.settingsChanged(world.participantID, on: world.db, now: world.clock.now())
            _ = try await BeepPlanner.planDueDays(on: world.db, now: world.clock.now().addingTimeInterval(86_400))
            let after = try #require(try await Beep.find(planned.requireID(), on: world.db))
            #expect(after.status == .pending)
            #expect(after.scheduledAt == planned.scheduledAt)

            try await BeepPlanner.cancelPendingBeeps(of: world.participantID, on: world.db, now: world.clock.now())
            #expect(try await Beep.find(planned.requireID(), on: world.db)?.status == .cancelled)
        }
    }

    @Test("the beeps export and the research API's beeps list name the response that asked for a follow-up")
    func exportCarriesTrigger() async throws {
        try await Self.withWorld { world in
            let receipt = try await world.answer(happy: 90)
            let (header, rows) = try CSVReader.rows(try await exportText(.beeps, study: "demo", on: world.db))
            #expect(header.last == "trigger_response_id")
            let followUps = rows.filter { $0["origin"] == "follow_up" }
            #expect(followUps.count == 1)
            #expect(followUps.first?["trigger_response_id"] == receipt.responseID.uuidString.lowercased())
            #expect(followUps.first?["survey"] == "Coping")
            #expect(rows.filter { $0["origin"] != "follow_up" }.allSatisfy { $0["trigger_response_id"] == "" })

            _ = try await WebsiteWorld.make(on: world.db)
            let developer = try #require(try await Researcher.query(on: world.db).filter(\.$email == WebsiteWorld.developer).first())
            let token = try await AccessTokens.create(
                for: developer, name: "nightly", studySlugs: [], expiresInDays: nil, readOnly: true, on: world.db, now: world.clock.now()).secret
            let listed = try await RawHTTP.send(
                world.server.baseURL, "GET", "/api/v1/research/studies/demo/beeps", body: nil, headers: ["Authorization": "Bearer \(token)"])
            #expect(listed.status == 200, "\(listed.body)")
            let beeps = try #require(try JSONSerialization.jsonObject(with: Data(listed.body.utf8)) as? [String: Any])["beeps"] as? [[String: Any]]
            let followUp = try #require(beeps?.first { $0["origin"] as? String == "follow_up" })
            #expect(followUp["trigger_response_id"] as? String == receipt.responseID.uuidString.lowercased())
            #expect(beeps?.filter { $0["origin"] as? String != "follow_up" }.allSatisfy { $0["trigger_response_id"] is NSNull } == true)
        }
    }

    @Test("a rule naming no beep survey of the study, or its own survey, keeps the study from opening, named")
    func studyLevelChecks() async throws {
        let feelings = SampleSurveys.experienceSampling
        func member(_ name: String, _ rules: String, kind: Survey.Kind = .esm, active: Bool = true) throws -> SurveySetRules.Member {
            var document = feelings
            document.extraFields["follow_ups"] = try JSONDecoder().decode(JSONValue.self, from: Data(rules.utf8))
            return .init(name: name, kind: kind, active: active, document: document)
        }
        let rule = { (survey: String) in #"[{"when": {">=": ["happy", 80]}, "survey": "\#(survey)", "after_minutes": 5}]"# }
        #expect(SurveySetRules.followUpProblems([try member("Feelings", rule("Coping")), try member("Coping", "[]")]).isEmpty)
        #expect(SurveySetRules.followUpProblems([try member("Feelings", rule("Copping")), try member("Coping", "[]")]) == [
            "Survey “Feelings”, follow-up 1: there is no active beep survey called “Copping” in this study (its beep surveys: “Coping”, “Feelings”).",
        ])
        #expect(SurveySetRules.followUpProblems([try member("Feelings", rule("Feelings"))]) == [
            "Survey “Feelings”, follow-up 1: it names its own survey; a survey cannot follow itself up.",
        ])
        // An inactive or registration survey cannot be asked at a beep.
        #expect(SurveySetRules.followUpProblems([try member("Feelings", rule("Coping")), try member("Coping", "[]", active: false)]).count == 1)
        #expect(SurveySetRules.followUpProblems([try member("Feelings", rule("Coping")), try member("Coping", "[]", kind: .registration)]).count == 1)
        #expect(SurveySetRules.followUpProblems([try member("Registration", rule("Feelings"), kind: .registration), try member("Feelings", "[]")]) == [
            "Survey “Registration”, follow-up 1: follow-ups are planned from the answers of beep surveys only, not of the registration survey.",
        ])

        // The study's readiness reports it, so registration is refused until it is fixed.
        try await withTestApp { app, _ in
            try await APIFixture.seedDemo(on: app.db)
            let demo = try #require(try await Study.query(on: app.db).filter(\.$slug == "demo").first())
            let survey = try #require(try await SurveyCatalog.defaultExperienceSurvey(of: demo.requireID(), on: app.db))
            var document = feelings
            document.extraFields["follow_ups"] = try JSONDecoder().decode(JSONValue.self, from: Data(rule("Coping").utf8))
            try await SurveyStore.saveVersion(of: survey, document: try SurveyStore.text(of: document), authorID: nil, on: app.db, now: Date())
            let readiness = try await StudyReadiness.check(demo, on: app.db)
            #expect(!readiness.isReady)
            #expect(readiness.blocking.contains { $0.contains("no active beep survey called “Coping”") })
        }
    }
}
