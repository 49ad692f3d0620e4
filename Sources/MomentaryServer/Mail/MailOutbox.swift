import Fluent
import Foundation
import SQLKit

/// The outbox every email goes through: a row per message and recipient, claimed by one worker
/// (`sending`) before it is attempted, moved to `committing` just before the final dot that makes
/// the mail server take it, and recorded `sent`, `failed` or back to `pending` with a later try.
///
/// After a crash a row left `sending` is tried again (the server had not been asked to take it),
/// while one left `committing` may already be in the recipient's inbox: it becomes `unconfirmed`,
/// is not sent again, and says so in the log and on the row.
enum MailOutbox {
    enum Status: String, CaseIterable {
        case pending, sending, committing, sent, failed, unconfirmed
    }

    /// What a mail is for, kept with it for the record.
    enum Purpose: String {
        case passwordReset = "password-reset"
        case alert
        case test
    }

    struct Claimed: Sendable, Equatable {
        let id: UUID
        let recipient: String
        let subject: String
        let body: String
        let messageID: String
        let attempts: Int
    }

    /// Tries before a message is given up on (`RetrySchedule`).
    static let maximumAttempts = RetrySchedule.maximumAttempts

    static func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        RetrySchedule.delay(afterAttempt: attempt)
    }

    /// Queues one message per recipient; they are sent by `MailSender`.
    @discardableResult
    static func enqueue(
        _ purpose: Purpose, to recipients: [MailAddress], subject: String, body: String, from: MailAddress,
        on db: any Database, now: Date
    ) async throws -> [UUID] {
        var ids: [UUID] = []
        for recipient in recipients {
            let id = UUID()
            try await db.sql.insert(into: "mail_outbox")
                .columns("id", "purpose", "recipient", "subject", "body", "message_id", "status", "attempts", "next_attempt_at", "created_at")
                .values(SQLBind(id), SQLBind(purpose.rawValue), SQLBind(recipient.address), SQLBind(subject), SQLBind(body),
                        SQLBind("<\(id.uuidString.lowercased())@\(from.domain)>"), SQLBind(Status.pending.rawValue),
                        SQLBind(0), SQLBind(now), SQLBind(now))
                .run()
            ids.append(id)
        }
        return ids
    }

    /// Moves up to `limit` due messages to `sending` for this worker. A message left `sending` by
    /// a worker that stopped (claimed longer than `stuckAfter` ago) is taken again; one left
    /// `committing` becomes `unconfirmed` first.
    static func claimDue(at now: Date, stuckAfter: TimeInterval, limit: Int, worker: String, on db: any Database) async throws -> [Claimed] {
        let sql = db.sql
        let stuck = now.addingTimeInterval(-stuckAfter)
        try await sql.update("mail_outbox")
            .set("status", to: Status.unconfirmed.rawValue)
            .set("last_error", to: "the worker stopped while the mail server was taking the message; it may have arrived, so it is not sent again")
            .where("status", .equal, Status.committing.rawValue).where("claimed_at", .lessThan, stuck)
            .run()
        let claim = ClaimedRows(
            table: "mail_outbox", pending: Status.pending.rawValue, sending: Status.sending.rawValue, dueColumn: "next_attempt_at",
            orderColumn: "next_attempt_at", countsAttempts: true, returning: ["id", "recipient", "subject", "body", "message_id", "attempts"])
        let rows = try await claim.claim(at: now, stuckAfter: stuckAfter, limit: limit, worker: worker, on: db)
        return try rows.map { row in
            Claimed(
                id: try row.decode(column: "id", as: UUID.self), recipient: try row.decode(column: "recipient", as: String.self),
                subject: try row.decode(column: "subject", as: String.self), body: try row.decode(column: "body", as: String.self),
                messageID: try row.decode(column: "message_id", as: String.self), attempts: try row.decode(column: "attempts", as: Int.self))
        }
    }

    /// Records that the final dot is about to be sent.
    static func markCommitting(_ id: UUID, on db: any Database) async throws {
        try await db.sql.update("mail_outbox").set("status", to: Status.committing.rawValue)
            .where("id", .equal, id).where("status", .equal, Status.sending.rawValue).run()
    }

    static func recordSent(_ id: UUID, at now: Date, on db: any Database) async throws {
        try await db.sql.update("mail_outbox")
            .set("status", to: Status.sent.rawValue).set("sent_at", to: now).set("last_error", to: SQLLiteral.null)
            .where("id", .equal, id).run()
    }

    /// Records a failed attempt: tried again later when the failure may pass and tries are left,
    /// otherwise `failed`.
    static func recordFailure(_ message: Claimed, error: String, transient: Bool, at now: Date, on db: any Database) async throws {
        let retry = transient && message.attempts < maximumAttempts
        try await db.sql.update("mail_outbox")
            .set("status", to: (retry ? Status.pending : Status.failed).rawValue)
            .set("next_attempt_at", to: now.addingTimeInterval(retry ? retryDelay(afterAttempt: message.attempts) : 0))
            .set("last_error", to: String(error.prefix(1000)))
            .where("id", .equal, message.id).run()
    }

    /// The earliest time a pending message is due: the sender's next wake-up.
    static func earliestPending(on db: any Database) async throws -> Date? {
        try await db.sql.select().column("next_attempt_at").from("mail_outbox")
            .where("status", .equal, Status.pending.rawValue)
            .orderBy("next_attempt_at").limit(1)
            .first()?.decode(column: "next_attempt_at", as: Date.self)
    }
}
