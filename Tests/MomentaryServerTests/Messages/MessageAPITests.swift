import Fluent
import Foundation
@testable import MomentaryServer
import MomentaryCore
import Testing
import Logging
import Vapor

/// The participant's inbox over HTTP: only their own messages, read once, replies stored once per
/// Idempotency-Key and only where the study takes them.
@Suite("Messages in the participant API", .serialized)
struct MessageAPITests {
    private struct InboxBody: Decodable {
        struct Message: Decodable { let id: UUID; let from: String; let text: String; let read_at: String?; let in_reply_to: UUID? }
        let messages: [Message]
        let replies_allowed: Bool
        let unread: Int
    }

    private struct ErrorBody: Decodable {
        struct Detail: Decodable { let code: String; let field: String? }
        let error: Detail
    }

    @Test("inbox, read, replies: each participant sees their own; a retried reply is one reply")
    func inboxAndReplies() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (_, first) = try await APIFixture.register(on: server)
            let (_, second) = try await APIFixture.register(on: server, APIFixture.registration(seed: 2))
            let study = try #require(try await Study.query(on: server.db).filter(\.$slug == "demo").first())
            let participant = try #require(try await Participant.find(first.participantID, on: server.db))
            let label = try #require(participant.label)
            _ = try await MessageService.send("Thank you for taking part so far!", to: .participant(label), in: study, by: "dev@example.org", now: Date(), on: server.db)
            let me = RawHTTP.basic(first.participantID, first.secret), other = RawHTTP.basic(second.participantID, second.secret)
            let base = server.baseURL

            let inbox = try JSONDecoder().decode(InboxBody.self, from: try await RawHTTP.fetch(base, "/api/v1/messages", headers: me).body)
            #expect(inbox.messages.map(\.text) == ["Thank you for taking part so far!"])
            #expect(inbox.messages[0].from == "researchers" && inbox.messages[0].read_at == nil && inbox.unread == 1 && !inbox.replies_allowed)
            let status = try JSONSerialization.jsonObject(with: try await RawHTTP.fetch(base, "/api/v1/status", headers: me).body) as? [String: Any]
            #expect(status?["unread_messages"] as? Int == 1)
            let theirs = try JSONDecoder().decode(InboxBody.self, from: try await RawHTTP.fetch(base, "/api/v1/messages", headers: other).body)
            #expect(theirs.messages.isEmpty && theirs.unread == 0)

            let id = inbox.messages[0].id
            #expect(try await RawHTTP.post(base, "/api/v1/messages/\(id)/read", json: "", headers: other).status == 404, "nobody reads another's message")
            #expect(try await RawHTTP.post(base, "/api/v1/messages/\(UUID())/read", json: "", headers: me).status == 404)
            #expect(try await RawHTTP.post(base, "/api/v1/messages/not-an-id/read", json: "", headers: me).status == 404)
            let read = try await RawHTTP.post(base, "/api/v1/messages/\(id)/read", json: "", headers: me)
            #expect(read.status == 200)
            let firstRead = try #require(try await ParticipantMessage.find(id, on: server.db)?.readAt)
            _ = try await RawHTTP.post(base, "/api/v1/messages/\(id)/read", json: "", headers: me)
            #expect(try await ParticipantMessage.find(id, on: server.db)?.readAt == firstRead, "read once: the first time stays")

            let reply = #"{"text":"Thanks, my phone was off.","in_reply_to":"\#(id)"}"#
            let key = ["Idempotency-Key": "reply-1"]
            let refused = try await RawHTTP.post(base, "/api/v1/messages", json: reply, headers: me.merging(key) { $1 })
            #expect(refused.status == 403)
            #expect(try JSONDecoder().decode(ErrorBody.self, from: Data(refused.body.utf8)).error.code == "forbidden")

            study.messageRepliesAllowed = true
            try await study.save(on: server.db)
            #expect(try await RawHTTP.post(base, "/api/v1/messages", json: reply, headers: me).status == 400, "a reply needs an Idempotency-Key")
            let misspelt = try await RawHTTP.post(base, "/api/v1/messages", json: #"{"text":"Hi","in_reply":"\#(id)"}"#, headers: me.merging(key) { $1 })
            #expect(misspelt.status == 400 && misspelt.body.contains("in_reply"), "an unknown field is refused by name")
            let blank = try await RawHTTP.post(base, "/api/v1/messages", json: #"{"text":"   "}"#, headers: me.merging(key) { $1 })
            #expect(blank.status == 422)
            let stranger = try await RawHTTP.post(base, "/api/v1/messages", json: #"{"text":"Hi","in_reply_to":"\#(id)"}"#, headers: other.merging(["Idempotency-Key": "x"]) { $1 })
            #expect(stranger.status == 422, "a reply can answer only one's own message")
            let stored = try await RawHTTP.post(base, "/api/v1/messages", json: reply, headers: me.merging(key) { $1 })
            #expect(stored.status == 201)
            let again = try await RawHTTP.post(base, "/api/v1/messages", json: reply, headers: me.merging(key) { $1 })
            #expect(again.status == 200 && again.body == stored.body, "a retried reply is the same reply")
            let replies = try await ParticipantMessage.query(on: server.db).filter(\.$fromParticipant == true).filter(\.$requestKey == "reply:reply-1").all()
            #expect(replies.count == 1 && replies[0].inReplyTo == id && replies[0].pushState == ParticipantMessage.PushState.none)

            // Deleting what a participant sent takes their replies and leaves the researchers' message.
            try await server.db.transaction { tx in _ = try await ParticipantAdministration.deleteSentDataRows(of: first.participantID, on: tx) }
            let left = try await ParticipantMessage.query(on: server.db).filter(\.$participant.$id == first.participantID).all()
            #expect(left.map(\.id) == [id])
        }
    }

    @Test("a message's push says so: Web Push carries kind and message_id, APNs message_id, and neither a beep id")
    func pushPayloads() throws {
        let id = UUID()
        let message = PushMessage(id: id, kind: .message, participantID: UUID(), alert: "Hello", sound: nil, expiresAt: nil)
        let web = try JSONSerialization.jsonObject(with: try WebPushPayload(message).encoded()) as? [String: Any]
        #expect(web?["kind"] as? String == "message" && web?["message_id"] as? String == id.uuidString.lowercased() && web?["beep_id"] == nil)
        let apns = try JSONSerialization.jsonObject(with: Data(buffer: APNsPayload(message).encoded())) as? [String: Any]
        #expect(apns?["message_id"] as? String == id.uuidString.lowercased() && apns?["beep_id"] == nil)
        #expect((apns?["aps"] as? [String: Any])?["alert"] as? String == "Hello")
    }
}

/// A participant's reply reaches the researchers: an alert email where a rule asks for one (the
/// text only when it says so), and a `message.replied` webhook delivery, each once.
@Suite("Replies reach the researchers", .serialized)
struct MessageReplyNoticeTests {
    private static let logger = Logger(label: "reply-tests")

    @Test("one alert per reply, with its text where the rule includes answers, and one webhook event")
    func replyAlertAndWebhook() async throws {
        let mail = try await LocalSMTPServer()
        defer { mail.stop() }
        let clock = ManualTimeSource(now: Date())
        try await withTestApp(timeSource: clock, adjusting: { $0.mail = .local(mail, security: .none) }) { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            world.studyA.messageRepliesAllowed = true
            try await world.studyA.save(on: app.db)
            let participant = try await WebsiteWorld.participant(in: world.studyA, label: "BCD23", on: app.db)
            let developer = try #require(try await Researcher.query(on: app.db).filter(\.$email == WebsiteWorld.developer).first()).requireID()
            _ = try await AlertRules.create(
                .init(kind: .replies, includeAnswers: true, recipients: [developer]), in: world.studyA, by: WebsiteWorld.developer, on: app.db, now: clock.now())
            let (webhook, secret) = try await Webhooks.create(
                in: world.studyA, url: "https://lab.example.org/events", events: ["message.replied"], by: WebsiteWorld.developer, on: app.db, now: clock.now())
            let receiver = try await LocalWebhookReceiver(secret: secret)
            defer { receiver.stop() }
            webhook.url = receiver.url
            try await webhook.save(on: app.db)

            clock.advance(by: 5)
            let reply = try await MessageService.reply("I will be away next week.", inReplyTo: nil, key: "r1", from: participant, now: clock.now(), on: app.db)
            _ = try await MessageService.reply("I will be away next week.", inReplyTo: nil, key: "r1", from: participant, now: clock.now(), on: app.db)
            #expect(reply.created)
            let queued = try await app.db.sql.raw("SELECT event, subject_id FROM webhook_deliveries").all()
            #expect(queued.count == 1, "one event for one reply, however often it was sent")
            #expect(try queued.first?.decode(column: "subject_id", as: UUID.self) == reply.message.id)

            #expect(await WebhookSender.deliverDue(on: app.db, now: { clock.now() }, logger: Self.logger) == 1)
            let delivered = try #require(try receiver.received().first)
            #expect(delivered.verified)
            #expect(delivered.body.contains(#""event":"message.replied""#) && delivered.body.contains(#""participant_label":"BCD23""#))
            #expect(!delivered.body.contains("away next week"), "a webhook carries ids and times, never the text")

            clock.advance(by: 30)
            #expect(await AlertChecker.run(on: app.db, now: clock.now(), mail: app.mail, logger: Self.logger) == 1)
            clock.advance(by: 60)
            #expect(await AlertChecker.run(on: app.db, now: clock.now(), mail: app.mail, logger: Self.logger) == 0)
            #expect(try await app.mail?.deliverDue() == 1)
            let messages = try await mail.waitForMessages(1)
            #expect(messages.first?.subject?.contains("Participant BCD23 replied to a message") == true)
            #expect(messages.first?.body.contains("I will be away next week.") == true)
        }
    }
}
