import Fluent
import Foundation
@testable import MomentaryServer
import SQLKit
import Testing
import Vapor

/// The outbox against a real SMTP server: a passing refusal is tried again later and the message
/// arrives once; a permanent one is given up; what a crash leaves is sent again only when the
/// mail server cannot have taken it.
@Suite("The mail outbox", .serialized)
struct MailOutboxTests {
    private let recipient = MailAddress(parsing: "someone@lab.example.org")!

    private func status(_ id: UUID, on db: any Database) async throws -> (status: String, attempts: Int, error: String?) {
        let row = try #require(try await db.sql.select().columns("status", "attempts", "last_error").from("mail_outbox").where("id", .equal, id).first())
        return (try row.decode(column: "status", as: String.self), try row.decode(column: "attempts", as: Int.self),
                try row.decode(column: "last_error", as: String?.self))
    }

    /// An app sending to `server`, on a manual clock, with one message queued.
    private func withOneQueuedMessage(
        to server: LocalSMTPServer, _ body: (Application, MailSender, ManualTimeSource, UUID) async throws -> Void
    ) async throws {
        let clock = ManualTimeSource(now: Date())
        try await withTestApp(timeSource: clock, adjusting: { $0.mail = .local(server, security: .none) }) { app, _ in
            let mail = try #require(app.mail)
            let ids = try await MailOutbox.enqueue(.test, to: [recipient], subject: "Hello", body: "Text", from: mail.settings.from, on: app.db, now: clock.now())
            try await body(app, mail, clock, try #require(ids.first))
        }
    }

    @Test("a 451 is tried again after a minute, then two, and the message arrives once")
    func retriesWithBackoff() async throws {
        let server = try await LocalSMTPServer(refuse: 2)
        defer { server.stop() }
        try await withOneQueuedMessage(to: server) { app, mail, clock, id in
            #expect(await mail.deliverDue() == 0)
            #expect(try await status(id, on: app.db).status == "pending")
            #expect(await mail.deliverDue() == 0, "not due again before its minute")
            clock.advance(by: 60)
            #expect(await mail.deliverDue() == 0)
            clock.advance(by: 119)
            #expect(await mail.deliverDue() == 0, "the second wait is two minutes")
            clock.advance(by: 1)
            #expect(await mail.deliverDue() == 1)
            let final = try await status(id, on: app.db)
            #expect(final.status == "sent")
            #expect(final.attempts == 3)
            #expect(try await server.waitForMessages(1).count == 1)
            clock.advance(by: 3600)
            #expect(await mail.deliverDue() == 0)
            #expect(try server.received().count == 1)
        }
    }

    @Test("a permanent refusal (550) is recorded failed and not tried again")
    func permanentFailure() async throws {
        let server = try await LocalSMTPServer(refuse: 5, refuseCode: 550)
        defer { server.stop() }
        try await withOneQueuedMessage(to: server) { app, mail, clock, id in
            #expect(await mail.deliverDue() == 0)
            let row = try await status(id, on: app.db)
            #expect(row.status == "failed")
            #expect(row.error?.contains("550") == true)
            clock.advance(by: 86_400)
            #expect(await mail.deliverDue() == 0)
            #expect(try await status(id, on: app.db).attempts == 1)
        }
    }

    @Test("after a crash, a message left before its final dot is sent again; one left at the dot is not")
    func crashLeftovers() async throws {
        let server = try await LocalSMTPServer()
        defer { server.stop() }
        let clock = ManualTimeSource(now: Date())
        try await withTestApp(timeSource: clock, adjusting: { $0.mail = .local(server, security: .none) }) { app, _ in
            let mail = try #require(app.mail)
            let ids = try await MailOutbox.enqueue(.test, to: [recipient, MailAddress(parsing: "other@lab.example.org")!], subject: "Hello", body: "Text", from: mail.settings.from, on: app.db, now: clock.now())
            // A worker that died: it claimed both, and had reached the final dot of the second.
            let claimed = try await MailOutbox.claimDue(at: clock.now(), stuckAfter: MailSender.stuckAfter, limit: 10, worker: "gone", on: app.db)
            #expect(claimed.count == 2)
            try await MailOutbox.markCommitting(ids[1], on: app.db)
            #expect(await mail.deliverDue() == 0, "a live claim is not taken")
            clock.advance(by: MailSender.stuckAfter + 1)
            #expect(await mail.deliverDue() == 1)
            #expect(try await status(ids[0], on: app.db).status == "sent")
            #expect(try await status(ids[1], on: app.db).status == "unconfirmed")
            #expect(try await server.waitForMessages(1).map(\.rcpt_tos) == [["someone@lab.example.org"]])
        }
    }
}
