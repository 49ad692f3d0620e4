import Fluent
import Foundation
import SQLKit

/// The webhook outbox: a row per event and endpoint, written by the transaction the event happens
/// in (so an event is never lost, and never queued for something rolled back), claimed by one
/// worker (`sending`) before each attempt and recorded `delivered`, `failed`, or back to `pending`
/// with a later try. A row left `sending` by a worker that stopped is sent again: delivery is at
/// least once, and receivers tell repeats apart by the event id.
enum WebhookOutbox {
    enum Status: String, CaseIterable {
        case pending, sending, delivered, failed
    }

    struct Claimed: Sendable, Equatable {
        let id: String
        let webhookID: UUID
        let event: String
        let subjectID: UUID
        let body: String?
        let attempts: Int
    }

    /// Longer than one attempt can take (`WebhookSender.requestTimeout`), so a live worker's
    /// claim is never taken from it.
    static let stuckAfter: TimeInterval = 120

    /// The statement queueing `event` about `subjects` (ids of `event.subjectTable`) for every
    /// webhook of their studies that takes it; nil for no subjects. Ids are 32 random hex digits.
    static func emitStatement(_ event: WebhookEvent, subjects: [UUID], now: Date, dialect: String) -> SQLQueryString? {
        guard !subjects.isEmpty else { return nil }
        let newID: SQLQueryString = dialect == "postgresql" ? "replace(gen_random_uuid()::text, '-', '')" : "lower(hex(randomblob(16)))"
        return """
            INSERT INTO webhook_deliveries (id, webhook_id, event, subject_id, status, attempts, next_attempt_at, created_at)
            SELECT \(newID), w.id, \(bind: event.rawValue), s.id, \(bind: Status.pending.rawValue), 0, \(bind: now), \(bind: now)
            FROM \(unsafeRaw: event.subjectTable) s JOIN webhooks w ON w.study_id = s.study_id
            WHERE s.id IN (\(binds: subjects)) AND w.events LIKE \(bind: "%," + event.rawValue + ",%")
            """
    }

    /// Queues `event` in the caller's transaction (see `emitStatement`).
    static func emit(_ event: WebhookEvent, subjects: [UUID], now: Date, on db: any Database) async throws {
        let sql = db.sql
        guard let statement = emitStatement(event, subjects: subjects, now: now, dialect: sql.dialect.name) else { return }
        try await sql.raw(statement).run()
    }

    /// Moves up to `limit` due deliveries to `sending` for this worker, with those a stopped
    /// worker left `sending`.
    static func claimDue(at now: Date, limit: Int, worker: String, on db: any Database) async throws -> [Claimed] {
        let claim = ClaimedRows(
            table: "webhook_deliveries", pending: Status.pending.rawValue, sending: Status.sending.rawValue, dueColumn: "next_attempt_at",
            orderColumn: "next_attempt_at", countsAttempts: true, returning: ["id", "webhook_id", "event", "subject_id", "body", "attempts"])
        let rows = try await claim.claim(at: now, stuckAfter: stuckAfter, limit: limit, worker: worker, on: db)
        return try rows.map { row in
            Claimed(
                id: try row.decode(column: "id", as: String.self), webhookID: try row.decode(column: "webhook_id", as: UUID.self),
                event: try row.decode(column: "event", as: String.self), subjectID: try row.decode(column: "subject_id", as: UUID.self),
                body: try row.decodeIfPresent(column: "body", as: String.self), attempts: try row.decode(column: "attempts", as: Int.self))
        }
    }

    /// Keeps the body made at the first attempt, so every retry sends the same bytes.
    static func keepBody(_ body: String, of id: String, on db: any Database) async throws {
        try await db.sql.update("webhook_deliveries").set("body", to: body).where("id", .equal, id).run()
    }

    static func recordDelivered(_ id: String, status: Int, at now: Date, on db: any Database) async throws {
        try await db.sql.update("webhook_deliveries")
            .set("status", to: Status.delivered.rawValue).set("delivered_at", to: now)
            .set("last_status", to: status).set("last_error", to: SQLLiteral.null)
            .where("id", .equal, id).run()
    }

    /// A failed attempt: tried again later while tries are left, otherwise `failed`.
    static func recordFailure(_ delivery: Claimed, status: Int?, error: String, at now: Date, on db: any Database) async throws {
        let retry = delivery.attempts < RetrySchedule.maximumAttempts
        try await db.sql.update("webhook_deliveries")
            .set("status", to: (retry ? Status.pending : Status.failed).rawValue)
            .set("next_attempt_at", to: now.addingTimeInterval(retry ? RetrySchedule.delay(afterAttempt: delivery.attempts) : 0))
            .set("last_status", to: status.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null)
            .set("last_error", to: String(error.prefix(1000)))
            .where("id", .equal, delivery.id).run()
    }
}
