import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// Beeps another system asks for through the research API, as that system meets them: a token
/// made for it, one beep per Idempotency-Key, the participant's hours and the limits.
@Suite("The research API: beeps from other systems", .serialized)
struct ResearchAPIBeepTests {
    /// Noon in London: inside the fixture participants' hours (08:00–22:00).
    static let noon = Date(timeIntervalSince1970: 1_796_126_400)  // 2026-12-01T12:00:00Z

    private struct Answer: Decodable {
        let beep_id: UUID
        let participant: String
        let survey: String?
        let origin: String
        let status: String
        let outcome: String?
        let scheduled_at: String
        let expires_at: String?
        let repeated: Bool
    }

    /// The website world, a participant labelled BCD23 in study-a, a signaller writing to an
    /// outbox on `clock`, and a developer's token that may trigger beeps.
    private func withTriggerWorld(
        clock: ManualTimeSource, _ body: (Application, WebsiteWorld, _ outbox: String, _ token: String) async throws -> Void
    ) async throws {
        try await withTestApp(timeSource: clock) { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            _ = try await WebsiteWorld.participant(in: world.studyA, label: "BCD23", on: app.db)
            let outbox = TestScratch.file("api-beeps-outbox", suffix: ".jsonl").path
            defer { try? FileManager.default.removeItem(atPath: outbox) }
            var channels = PushChannelRegistry()
            channels.register(OutboxChannel(path: outbox), as: "none")
            app.signalling.install(channels: channels, timeSource: clock)
            let token = try await self.token(WebsiteWorld.developer, triggersBeeps: true, on: app.db, now: clock.now())
            try await body(app, world, outbox, token)
        }
    }

    private func token(_ email: String, triggersBeeps: Bool, readOnly: Bool = false, on db: any Database, now: Date) async throws -> String {
        let researcher = try #require(try await Researcher.query(on: db).filter(\.$email == email).first())
        return try await AccessTokens.create(
            for: researcher, name: "trigger", studySlugs: [], expiresInDays: nil, readOnly: readOnly, triggersBeeps: triggersBeeps,
            on: db, now: now).secret
    }

    private func trigger(
        _ app: Application, token: String, study: String = "study-a", label: String = "BCD23", key: String? = nil, json: String? = nil
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.bearerAuthorization = BearerAuthorization(token: token)
        if let key { headers.add(name: "Idempotency-Key", value: key) }
        var body: ByteBuffer?
        if let json {
            headers.contentType = .json
            body = ByteBuffer(string: json)
        }
        return try await app.testing().sendRequest(.POST, "/api/v1/research/studies/\(study)/participants/\(label)/beeps", headers: headers, body: body)
    }

    private func apiBeeps(on db: any Database) async throws -> [Beep] {
        try await Beep.query(on: db).filter(\.$origin == .api).all()
    }

    @Test("one beep per Idempotency-Key, origin api, through the dispatcher to the push channel, with the survey and window asked for")
    func oneBeepPerKey() async throws {
        let clock = ManualTimeSource(now: Self.noon)
        try await withTriggerWorld(clock: clock) { app, _, outbox, token in
            let first = try await trigger(app, token: token, key: "eeg-session-17", json: #"{"survey": "Feelings", "answer_window_minutes": 20}"#)
            #expect(first.status == .created, "\(first.body.string)")
            let sent = try JSONDecoder().decode(Answer.self, from: first.body)
            #expect(sent.origin == "api")
            #expect(sent.status == "sent")
            #expect(sent.survey == "Feelings")
            #expect(sent.participant == "BCD23")
            #expect(sent.repeated == false)
            #expect(sent.expires_at == "2026-12-01T12:20:00Z", "the answer window asked for, not the study's")

            clock.advance(by: 30)
            let retried = try await trigger(app, token: token, key: "eeg-session-17", json: #"{"survey": "Feelings", "answer_window_minutes": 20}"#)
            let malformed = try await trigger(app, token: token, key: "eeg session/17", json: #"{"survey": "Feelings"}"#)
            #expect(malformed.status == .badRequest && malformed.body.string.contains("Idempotency-Key"), "the API's one rule for keys")
            #expect(retried.status == .ok)
            let again = try JSONDecoder().decode(Answer.self, from: retried.body)
            #expect(again.beep_id == sent.beep_id)
            #expect(again.repeated)
            let pushed = try String(contentsOfFile: outbox, encoding: .utf8)
            #expect(pushed.components(separatedBy: sent.beep_id.uuidString).count - 1 == 1, "a retried call pushes nothing more")

            // A label typed in lower case and no key: a new beep, with the study's beep survey.
            let other = try await trigger(app, token: token, label: "bcd23")
            #expect(other.status == .created)
            #expect(try JSONDecoder().decode(Answer.self, from: other.body).survey == nil)
            let beeps = try await apiBeeps(on: app.db)
            #expect(beeps.count == 2)
            #expect(beeps.compactMap(\.requestKey) == ["eeg-session-17"])
        }
    }

    @Test("refused without a token made to trigger, beyond the role or the study, or with a body or key that is not right; nothing is sent")
    func refusals() async throws {
        let clock = ManualTimeSource(now: Self.noon)
        try await withTriggerWorld(clock: clock) { app, world, _, token in
            let plain = try await self.token(WebsiteWorld.developer, triggersBeeps: false, on: app.db, now: clock.now())
            let notAllowed = try await trigger(app, token: plain)
            #expect(notAllowed.status == .forbidden)
            #expect(notAllowed.body.string.contains("--trigger-beeps"))
            // A token may not be both read-only and triggering; a role without test beeps gives no such token.
            await #expect(throws: AccessTokens.Refusal.self) {
                _ = try await self.token(WebsiteWorld.developer, triggersBeeps: true, readOnly: true, on: app.db, now: clock.now())
            }
            for email in [WebsiteWorld.observer, WebsiteWorld.researcher] {
                await #expect(throws: AccessTokens.Refusal.self, "\(email)'s role may not send beeps") {
                    _ = try await self.token(email, triggersBeeps: true, on: app.db, now: clock.now())
                }
            }
            // A developer who is a member of study-a only.
            _ = try await ResearcherAccounts.create(
                email: "lab@example.org", name: "Lab", roleID: try await ResearcherAccounts.roleID("Developer", on: app.db),
                password: WebsiteWorld.password, studyIDs: [world.studyA.requireID()], on: app.db, now: clock.now())
            _ = try await WebsiteWorld.participant(in: world.studyB, label: "FGH45", on: app.db)
            let member = try await self.token("lab@example.org", triggersBeeps: true, on: app.db, now: clock.now())
            #expect(try await trigger(app, token: member, key: "lab-1").status == .created, "their own study")
            #expect([.forbidden, .notFound].contains(try await trigger(app, token: member, study: "study-b", label: "FGH45").status))
            #expect(try await trigger(app, token: token, study: "study-a", label: "FGH45").status == .notFound, "a label of another study")
            #expect(try await trigger(app, token: token, label: "ZZZ99").status == .notFound)

            for (json, status) in [
                (#"{"surveys": "Feelings"}"#, HTTPStatus.badRequest), (#"{"respect_hours": "yes"}"#, .badRequest), ("[1]", .badRequest),
                (#"{"survey": "Nope"}"#, .unprocessableEntity), (#"{"answer_window_minutes": 0}"#, .unprocessableEntity),
                (#"{"answer_window_minutes": 2000}"#, .unprocessableEntity),
            ] {
                let refused = try await trigger(app, token: token, json: json)
                #expect(refused.status == status, "\(json): \(refused.body.string)")
                #expect(refused.body.string.contains("\"error\""))
            }
            for key in ["has space", String(repeating: "k", count: 201), "ünïcode"] {
                #expect(try await trigger(app, token: token, key: key).status == .badRequest, "\(key)")
            }
            let withdrawn = try await WebsiteWorld.participant(in: world.studyA, label: "JKL67", on: app.db)
            withdrawn.status = .withdrawn
            try await withdrawn.save(on: app.db)
            #expect(try await trigger(app, token: token, label: "JKL67").status == .conflict)
            #expect(try await apiBeeps(on: app.db).count == 1, "only the member's beep to their own study")
        }
    }

    @Test("the participant's hours hold unless the call says otherwise; the limits answer 429 with Retry-After")
    func hoursAndLimits() async throws {
        let lateEvening = Self.noon.addingTimeInterval(11.5 * 3_600)  // 23:30 in London, after the hours
        let clock = ManualTimeSource(now: lateEvening)
        try await withTriggerWorld(clock: clock) { app, _, _, token in
            let respected = try JSONDecoder().decode(Answer.self, from: try await trigger(app, token: token).body)
            #expect(respected.status == "missed")
            #expect(respected.outcome == "outside_hours")
            let ignored = try await trigger(app, token: token, json: #"{"respect_hours": false}"#)
            #expect(ignored.status == .created)
            let sent = try JSONDecoder().decode(Answer.self, from: ignored.body)
            #expect(sent.status == "sent")
            #expect(sent.expires_at == "2026-12-01T23:45:00Z", "15 minutes where the study sets no answer window")

            for _ in 3...APIBeepLimits.perParticipant {
                clock.advance(by: 60)
                #expect(try await trigger(app, token: token, json: #"{"respect_hours": false}"#).status == .created)
            }
            clock.advance(by: 60)
            let limited = try await trigger(app, token: token, json: #"{"respect_hours": false}"#)
            #expect(limited.status == .tooManyRequests)
            let retryAfter = try #require(limited.headers.first(name: .retryAfter).flatMap { Int($0) })
            // The first of the 24 leaves the day's window 24 hours after it was asked for.
            #expect(retryAfter == 24 * 3_600 - (APIBeepLimits.perParticipant - 1) * 60)
            #expect(try await apiBeeps(on: app.db).count == APIBeepLimits.perParticipant)
            clock.advance(by: Double(retryAfter))
            #expect(try await trigger(app, token: token, json: #"{"respect_hours": false}"#).status == .created)
        }
    }
}
