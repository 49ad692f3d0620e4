import Fluent
import Foundation
import Logging
@testable import MomentaryServer
import MomentaryCore
import Testing
import Vapor

/// Webhooks as a receiving system meets them: each event once, signed so that Python's hmac
/// verifies it, retried when the receiver fails, sent again after a worker stopped mid-delivery.
@Suite("Webhooks", .serialized)
struct WebhookTests {
    private static let logger = Logger(label: "webhook-tests")

    private struct Payload: Decodable {
        let id: String
        let event: String
        let study: String
        let data: [String: String]
    }

    @Test("joined, stored, expired, replied and withdrawn each reach the receiver once, signed; a refused attempt is tried again later")
    func eachEventOnce() async throws {
        let clock = ManualTimeSource(now: Date())
        try await withRunningServer(timeSource: clock) { server in
            try await APIFixture.seedDemo(on: server.db)
            let study = try #require(try await Study.query(on: server.db).filter(\.$slug == "demo").first())
            let other = try await StudyTransfer.create(slug: "other", name: "Other", invitationOnly: false, deviceScheduled: false, on: server.db, now: Date())
            // The receiver refuses the first request; the secret is only known once the webhook exists.
            let probe = try await Webhooks.create(in: other, url: "https://elsewhere.example.org/hook", events: ["participant.joined"], by: "dev@example.org", on: server.db, now: clock.now())
            #expect(probe.secret.hasPrefix("whsec_"))
            let (webhook, secret) = try await Webhooks.create(
                in: study, url: "http://127.0.0.1:1/placeholder", events: WebhookEvent.allCases.map(\.rawValue), by: "dev@example.org", on: server.db, now: clock.now())
            let receiver = try await LocalWebhookReceiver(secret: secret, fail: 1)
            defer { receiver.stop() }
            webhook.url = receiver.url
            try await webhook.save(on: server.db)

            let (client, registered) = try await APIFixture.register(on: server)
            _ = try await client.submitResponse(APIFixture.submission())
            let beep = try await APIFixture.deliveredBeep(for: registered.participantID, minutesAgo: 30, on: server.db)
            beep.expiresAt = clock.now().addingTimeInterval(-60)
            try await beep.save(on: server.db)
            #expect(try await BeepStore.expireDue(at: clock.now(), on: server.db) == 1)
            let participant = try #require(try await Participant.find(registered.participantID, on: server.db))
            study.messageRepliesAllowed = true
            try await study.save(on: server.db)
            _ = try await MessageService.reply("Thanks!", inReplyTo: nil, key: "reply-1", from: participant, now: clock.now(), on: server.db)
            try await ParticipantAdministration.setStatus(.withdrawn, of: participant, reason: "test", on: server.db, now: clock.now())

            let queued = try await server.db.sql.raw("SELECT event, webhook_id FROM webhook_deliveries").all()
            #expect(queued.count == 5, "one delivery per event, none for the other study's webhook")

            let first = await WebhookSender.deliverDue(on: server.db, now: { clock.now() }, logger: Self.logger)
            #expect(first == 4, "the receiver refused the first attempt")
            clock.advance(by: 61)
            #expect(await WebhookSender.deliverDue(on: server.db, now: { clock.now() }, logger: Self.logger) == 1)
            clock.advance(by: 3_600)
            #expect(await WebhookSender.deliverDue(on: server.db, now: { clock.now() }, logger: Self.logger) == 0, "nothing is sent twice")

            let received = try receiver.received()
            #expect(received.count == 6)
            #expect(received.allSatisfy { $0.verified }, "Python's hmac verifies every signature")
            let accepted = received.filter { $0.status == 204 }
            let payloads = try accepted.map { try JSONDecoder().decode(Payload.self, from: Data($0.body.utf8)) }
            #expect(Set(payloads.map(\.event)) == Set(WebhookEvent.allCases.map(\.rawValue)))
            #expect(Set(payloads.map(\.id)).count == 5)
            #expect(payloads.allSatisfy { $0.study == "demo" && $0.data["participant_id"] == registered.participantID.uuidString.lowercased() })
            // The refused attempt and its retry are the same event, same bytes.
            let refused = try #require(received.first { $0.status == 503 })
            #expect(accepted.contains { $0.delivery == refused.delivery && $0.body == refused.body })
            #expect(accepted.allSatisfy { $0.delivery == (try? JSONDecoder().decode(Payload.self, from: Data($0.body.utf8)))?.id })
            let stored = try #require(payloads.first { $0.event == "response.stored" })
            #expect(stored.data["response_id"] != nil && stored.data["survey"] != nil)
            #expect(!stored.data.keys.contains("answers"), "answers are never sent")
        }
    }

    @Test("a delivery a stopped worker left mid-send is sent again, with the same event id")
    func atLeastOnceAfterAStop() async throws {
        let clock = ManualTimeSource(now: Date())
        try await withTestApp(timeSource: clock) { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let (webhook, secret) = try await Webhooks.create(
                in: world.studyA, url: "http://127.0.0.1:1/placeholder", events: ["participant.withdrawn"], by: "dev@example.org", on: app.db, now: clock.now())
            let receiver = try await LocalWebhookReceiver(secret: secret)
            defer { receiver.stop() }
            webhook.url = receiver.url
            try await webhook.save(on: app.db)
            let participant = try #require(try await Participant.find(world.participantA, on: app.db))
            try await ParticipantAdministration.setStatus(.withdrawn, of: participant, reason: "test", on: app.db, now: clock.now())

            // A worker claims the delivery and stops before sending it.
            let claimed = try await WebhookOutbox.claimDue(at: clock.now(), limit: 10, worker: "stopped", on: app.db)
            #expect(claimed.count == 1)
            #expect(await WebhookSender.deliverDue(on: app.db, now: { clock.now() }, logger: Self.logger) == 0, "a live claim is left alone")
            clock.advance(by: WebhookOutbox.stuckAfter + 1)
            #expect(await WebhookSender.deliverDue(on: app.db, now: { clock.now() }, logger: Self.logger) == 1)
            let received = try receiver.received()
            #expect(received.map(\.delivery) == [claimed[0].id])
            let attempts = try await app.db.sql.raw("SELECT attempts, status FROM webhook_deliveries").first()
            #expect(try attempts?.decode(column: "attempts", as: Int.self) == 2)
            #expect(try attempts?.decode(column: "status", as: String.self) == "delivered")
        }
    }

    @Test("the website adds a webhook (secret shown once) only with an https address and events, and deletes it; observers may only look")
    func website() async throws {
        try await withSignedInDeveloper { app, world, client in
            _ = try await client.get("/studies/study-a/webhooks")
            let forms: [([(String, String)], String)] = [
                ([("url", "http://lab.example.org/hook"), ("events[]", "response.stored")], "use https://"),
                ([("url", "https://user:pw@lab.example.org/hook"), ("events[]", "response.stored")], "user name"),
                ([("url", "https://lab.example.org/hook")], "choose at least one"),
                ([("url", "not an address"), ("events[]", "response.stored")], "whole address"),
                ([("url", "https://169.254.169.254/latest/meta-data"), ("events[]", "response.stored")], "private network"),
                ([("url", "https://10.0.0.7/hook"), ("events[]", "response.stored")], "private network"),
                ([("url", "https://[fd00::1]/hook"), ("events[]", "response.stored")], "private network"),
            ]
            for (form, problem) in forms {
                let refused = try await client.post("/studies/study-a/webhooks", form)
                #expect(refused.status == .unprocessableEntity, "\(form)")
                #expect(refused.body.string.contains(problem), "\(form)")
            }
            #expect(try await Webhook.query(on: app.db).count() == 0)
            let made = try await client.post("/studies/study-a/webhooks", [("url", "https://lab.example.org/hook"), ("events[]", "participant.joined")])
            #expect(made.status == .created)
            let webhook = try #require(try await Webhook.query(on: app.db).first())
            #expect(made.body.string.contains(webhook.secret))
            #expect(webhook.events == [.participantJoined])
            let page = try await client.get("/studies/study-a/webhooks")
            #expect(!page.body.string.contains(webhook.secret), "the secret is shown only once")
            #expect(page.body.string.contains("https://lab.example.org/hook"))

            var observer = WebClient(app)
            _ = try await observer.signIn(WebsiteWorld.observer)
            #expect(try await observer.get("/studies/study-a/webhooks").status == .ok)
            _ = try await observer.get("/studies/study-a/webhooks")
            #expect(try await observer.post("/studies/study-a/webhooks", [("url", "https://x.example.org"), ("events[]", "participant.joined")]).status == .forbidden)
            #expect(try await observer.post("/studies/study-a/webhooks/\(try webhook.requireID())/delete").status == .forbidden)

            #expect(try await client.post("/studies/study-b/webhooks/\(try webhook.requireID())/delete").status == .notFound, "another study's webhook")
            #expect(try await client.post("/studies/study-a/webhooks/\(try webhook.requireID())/delete").status == .seeOther)
            #expect(try await Webhook.query(on: app.db).count() == 0)
            _ = world
        }
    }
}

@Suite("Webhook addresses")
struct WebhookAddressTests {
    @Test("private, link-local and unspecified literal addresses are refused; public ones, names and loopback are not")
    func privateNetworks() {
        for host in ["10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "[fd12::1]", "fe80::1", "[::ffff:10.0.0.1]", "::"] {
            #expect(Webhooks.isPrivateNetworkAddress(host), "\(host)")
        }
        for host in ["8.8.8.8", "172.32.0.1", "192.169.0.1", "lab.example.org", "127.0.0.1", "[::1]", "2001:db8::1", "100.128.0.1"] {
            #expect(!Webhooks.isPrivateNetworkAddress(host), "\(host)")
        }
    }
}
