import AsyncHTTPClient
import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import MomentaryTestServers
import NIOSSL
import Testing

/// The protocol of a 2026 ESM study, end to end through Web Push with the whole server on one
/// injected clock: each beep answerable for 15 minutes, 30 minutes to finish, reminders after 5
/// and 10 minutes while nobody has opened it.
@Suite("Signalling: answer windows, reminders and expiry, end to end")
struct AnswerWindowEndToEndTests {
    /// 07:00 in London on a summer Monday: registration plans the day's beeps from 08:00.
    static let start = Date(timeIntervalSince1970: 1_780_293_600)

    struct World {
        let server: RunningServer
        let clock: ManualTimeSource
        let service: LocalWebPushService
        let subscriptionID: String
        let client: MomentaryAPIClient
        let participantID: UUID

        func pushes() async -> [ReceivedWebPushMessage] { await service.receivedMessages(for: subscriptionID) }

        /// Sets the clock and lets the dispatcher run the wake that time calls for.
        func at(_ date: Date) async throws {
            clock.set(date)
            server.app.signalling.notifyScheduleChanged()
            try await Task.sleep(for: .milliseconds(300))
        }

        func beeps() async throws -> [Beep] {
            try await Beep.query(on: server.db).filter(\.$participant.$id == participantID)
                .filter(\.$origin == .random).sort(\.$scheduledAt).all()
        }

        func answer(_ beepID: UUID?, startedAt: Date, seconds: Double = 40, seed: UInt64 = 7) async throws -> ResponseReceipt {
            var submission = APIFixture.submission(beepID: beepID, seed: seed)
            submission.startedAt = startedAt
            submission.submittedAt = startedAt.addingTimeInterval(seconds)
            return try await client.submitResponse(submission)
        }
    }

    static func withWorld(_ body: (World) async throws -> Void) async throws {
        let clock = ManualTimeSource(now: start)
        try await withRunningServer(timeSource: clock) { server in
            let app = server.app
            try await APIFixture.seedDemo(on: app.db)
            let demo = try #require(try await Study.query(on: app.db).filter(\.$slug == "demo").first())
            demo.setAnswerWindow(AnswerWindow(answerWindowMinutes: 15, completionMinutes: 30, remindersAfterMinutes: [5, 10]))
            demo.reminderAlertText = "A reminder: how do you feel?"
            try await demo.save(on: app.db)

            let certificates = try LocalAPNsCertificates.generate()
            let service = try await LocalWebPushService.start(tls: certificates)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates([try NIOSSLCertificate(bytes: Array(certificates.certificateAuthorityPEM.utf8), format: .pem)])]
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(
                tlsConfiguration: tls, timeout: .init(connect: .seconds(5), read: .seconds(30))))
            do {
                let keyPair = VAPID.KeyPair.generate()
                // VAPID tokens on the real clock (the push service checks their expiry); messages'
                // time to live on the study's clock.
                let channel = WebPushChannel(
                    httpClient: http,
                    authorizer: try VAPID.Authorizer(keyPair: keyPair, subject: "mailto:research@example.org"),
                    now: { clock.now() })
                app.signalling.install(channels: PushChannelRegistry([channel]), timeSource: clock)
                await app.signalling.start()
                let subscription = await service.makeSubscription(applicationServerKey: keyPair.publicKeyBase64URL)
                var registration = APIFixture.registration()
                registration.push = .webPush(WebPushSubscription(
                    endpoint: subscription.endpoint.absoluteString, keys: .init(p256dh: subscription.p256dh, auth: subscription.auth)))
                let (client, registered) = try await APIFixture.register(on: server, registration)
                try await body(World(
                    server: server, clock: clock, service: service, subscriptionID: subscription.id, client: client,
                    participantID: registered.participantID))
                await app.signalling.shutdown()
            } catch {
                await app.signalling.shutdown()
                try? await http.shutdown()
                await service.stop()
                throw error
            }
            try await http.shutdown()
            await service.stop()
        }
    }

    @Test("reminders follow an unopened beep with its identity and stop once it is opened; an answer begun in time counts")
    func remindersUntilOpened() async throws {
        try await Self.withWorld { world in
            let first = try #require(try await world.beeps().first)
            let beepID = try first.requireID()
            let sentAt = first.scheduledAt
            try await world.at(sentAt)
            try await eventually("the beep is sent") { try await Beep.find(beepID, on: world.server.db)?.status == .sent }
            let sent = try #require(try await Beep.find(beepID, on: world.server.db))
            #expect(sent.expiresAt.map { abs($0.timeIntervalSince(sentAt) - 15 * 60) < 2 } == true, "15 minutes to begin")

            try await world.at(sentAt.addingTimeInterval(5 * 60 + 1))
            try await eventually("the first reminder reached the push service") { await world.pushes().count == 2 }
            let pushes = await world.pushes()
            let reminder = try #require(try JSONSerialization.jsonObject(with: pushes[1].payload) as? [String: Any])
            #expect(reminder["beep_id"] as? String == beepID.uuidString.lowercased(), "the same notification, replaced by its tag")
            #expect(reminder["alert"] as? String == "A reminder: how do you feel?")
            let topic = beepID.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            #expect(pushes.allSatisfy { $0.headers["topic"] == topic }, "one Topic per beep, so a service keeps only the newest")

            // Opened at +7 minutes: the second reminder is not sent, and the survey may be finished in 30 minutes.
            world.clock.set(sentAt.addingTimeInterval(7 * 60))
            let delivery = try await world.client.survey(forBeep: beepID)
            #expect(delivery.expiresAt.map { abs($0.timeIntervalSince(sentAt.addingTimeInterval(37 * 60))) < 2 } == true)
            try await world.at(sentAt.addingTimeInterval(10 * 60 + 1))
            try await world.at(sentAt.addingTimeInterval(11 * 60))
            #expect(await world.pushes().count == 2, "no reminder after the beep was opened")
            // The second reminder is claimed at +10 and recorded cancelled by the send step, which may
            // finish after the wake returns on a loaded machine.
            try await eventually("the second reminder is recorded cancelled") {
                let reminders = try await world.server.db.sql.raw(
                    "SELECT sequence, status FROM reminders WHERE beep_id = \(bind: beepID) ORDER BY sequence").all()
                return try reminders.map { try $0.decode(column: "status", as: String.self) } == ["sent", "cancelled"]
            }

            // Begun at +7 and uploaded at +20, past the 15-minute window: it still answers the beep.
            try await world.at(sentAt.addingTimeInterval(20 * 60))
            let receipt = try await world.answer(beepID, startedAt: sentAt.addingTimeInterval(7 * 60))
            #expect(!receipt.volunteered)
            #expect(try await Beep.find(beepID, on: world.server.db)?.status == .answered)

            let rows = try CSVReader.rows(try await exportText(.beeps, study: "demo", on: world.server.db)).rows
            let row = try #require(rows.first { $0["beep_id"] == beepID.uuidString.lowercased() })
            #expect(row["reminders_sent"] == "1")
            #expect(row["opened_at_utc"]?.hasPrefix(String(WireCoding.string(from: sentAt.addingTimeInterval(7 * 60)).prefix(16))) == true)
            #expect(row["expires_at_local"]?.isEmpty == false)
        }
    }

    @Test("a beep nobody opened expires at its deadline: its survey answers 410, a late start is refused, an offline answer begun in time counts")
    func expiry() async throws {
        try await Self.withWorld { world in
            let beeps = try await world.beeps()
            let first = try #require(beeps.first)
            let beepID = try first.requireID()
            let sentAt = first.scheduledAt
            try await world.at(sentAt)
            try await eventually("the beep is sent") { try await Beep.find(beepID, on: world.server.db)?.status == .sent }
            try await world.at(sentAt.addingTimeInterval(5 * 60 + 1))
            try await world.at(sentAt.addingTimeInterval(10 * 60 + 1))
            try await eventually("both reminders were pushed") { await world.pushes().count == 3 }

            try await world.at(sentAt.addingTimeInterval(15 * 60 + 1))
            try await eventually("the beep expired at its deadline") { try await Beep.find(beepID, on: world.server.db)?.status == .expired }
            do {
                _ = try await world.client.survey(forBeep: beepID)
                Issue.record("an expired beep's survey was served")
            } catch let error as MomentaryClientError {
                guard case .badRequest(let status, let code, _) = error else { throw error }
                #expect(status == 410 && code == "beep_expired")
            }
            // Begun after the deadline: refused, and nothing stored.
            do {
                _ = try await world.answer(beepID, startedAt: sentAt.addingTimeInterval(16 * 60))
                Issue.record("an answer begun after the deadline was stored")
            } catch let error as MomentaryClientError {
                guard case .badRequest(let status, let code, _) = error else { throw error }
                #expect(status == 410 && code == "beep_expired")
            }
            // Begun before the beep reached the phone: a clear 422.
            do {
                _ = try await world.answer(beepID, startedAt: sentAt.addingTimeInterval(-3_600))
                Issue.record("an answer begun before the beep was stored")
            } catch let error as MomentaryClientError {
                guard case .badRequest(let status, _, let message) = error else { throw error }
                #expect(status == 422 && message.contains("before the beep reached you"))
            }
            #expect(try await SurveyResponse.query(on: world.server.db).filter(\.$beep.$id == beepID).count() == 0)

            // An offline phone: begun at +12 minutes, uploaded an hour later.
            try await world.at(sentAt.addingTimeInterval(72 * 60))
            let receipt = try await world.answer(beepID, startedAt: sentAt.addingTimeInterval(12 * 60))
            #expect(!receipt.volunteered)
            #expect(try await Beep.find(beepID, on: world.server.db)?.status == .answered)
        }
    }
}

@Suite("Signalling: a fixed schedule's own answer window")
struct FixedScheduleAnswerWindowTests {
    @Test("a fixed schedule's answer window wins over the study's for its beeps, and such a beep does not end the one before it")
    func scheduleWindowWins() async throws {
        try await withTestApp { app, _ in
            let noon = ISO8601DateFormatter().date(from: "2026-06-10T11:00:00Z")!
            let clock = ManualTimeSource(now: noon)
            let channel = RecordingChannel(clock: clock)
            let rules = #"{"rules": [{"weekly": {"days": ["wed"], "time": "12:30"}}], "answer_window_minutes": 45}"#
            let fixture = try await SignallingFixture.make(
                on: app.db, now: noon, randomSampling: false, fixedRules: rules, defaultTimeZone: "Europe/London")
            fixture.study.setAnswerWindow(AnswerWindow(answerWindowMinutes: 15))
            try await fixture.study.save(on: app.db)
            let participant = try await fixture.participant(on: app.db, now: noon)
            try await BeepPlanner.planNewParticipant(participant.requireID(), on: app.db, now: noon)
            let planned = try #require(try await Beep.query(on: app.db).filter(\.$origin == .fixed).sort(\.$scheduledAt).first())
            #expect(planned.answerWindowMinutes == 45)

            let dispatcher = makeDispatcher(app, clock: clock, channels: [channel])
            let earlier = try await fixture.pendingBeep(
                for: participant, at: planned.scheduledAt.addingTimeInterval(-600), origin: .random, sequence: 50, on: app.db)
            clock.set(planned.scheduledAt.addingTimeInterval(-600))
            try await dispatcher.runCycle()
            clock.set(planned.scheduledAt)
            try await dispatcher.runCycle()
            let sent = try #require(try await Beep.find(planned.id, on: app.db))
            #expect(sent.status == .sent)
            #expect(sent.expiresAt == planned.scheduledAt.addingTimeInterval(45 * 60), "the schedule's 45 minutes, not the study's 15")
            let before = try #require(try await Beep.find(earlier.id, on: app.db))
            #expect(before.status == .sent && before.expiresAt == earlier.scheduledAt.addingTimeInterval(15 * 60),
                    "the earlier beep keeps its own window")
        }
    }
}
