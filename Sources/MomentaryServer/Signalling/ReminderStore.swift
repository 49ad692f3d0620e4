import Fluent
import Foundation
import SQLKit

/// A reminder this worker has moved to `sending`, with what deciding and pushing it needs.
struct ClaimedReminder: Sendable, Hashable {
    let id: UUID
    let beepID: UUID
    let participantID: UUID
    let studyID: UUID
    let sequence: Int
    let dueAt: Date
}

/// The dispatcher's statements on `reminders`: planned when their beep is recorded sent, claimed
/// before they are pushed, their outcome recorded after, as beeps are (see `BeepStore`).
enum ReminderStore {
    enum Status: String, Sendable {
        case pending, sending, sent, failed
        /// Not pushed: the beep was opened, answered, ignored or expired first, or the participant
        /// was outside their hours or no longer takes part.
        case cancelled
    }

    /// Reminders of one beep just recorded sent: one row per offset that falls before its deadline.
    static func plan(
        beepID: UUID, participantID: UUID, studyID: UUID, sentAt: Date, offsets: [Int], deadline: Date?,
        on sql: any SQLDatabase
    ) async throws {
        let due = offsets.enumerated()
            .map { (sequence: $0.offset + 1, at: sentAt.addingTimeInterval(Double($0.element) * 60)) }
            .filter { reminder in deadline.map { reminder.at < $0 } ?? true }
        guard !due.isEmpty else { return }
        let insert = sql.insert(into: "reminders")
            .columns("id", "beep_id", "participant_id", "study_id", "sequence", "due_at", "status")
        for reminder in due {
            insert.values(SQLBind(UUID()), SQLBind(beepID), SQLBind(participantID), SQLBind(studyID),
                          SQLBind(reminder.sequence), SQLBind(reminder.at), SQLBind(Status.pending.rawValue))
        }
        try await insert.run()
    }

    /// Moves up to `limit` due reminders to `sending` and returns them; as `BeepStore.claimDue`,
    /// one worker takes each. Reminders left `sending` by a worker that stopped before recording
    /// them (`claimed_at` older than `stuckAfter`) are taken again: they carry the beep's identity,
    /// so a second push replaces the first on the phone instead of showing twice.
    static func claimDue(at now: Date, stuckAfter: TimeInterval, limit: Int, worker: String, on db: any Database) async throws -> [ClaimedReminder] {
        let sql = db.sql
        let locking: SQLQueryString = sql.dialect.name == "postgresql" ? "FOR UPDATE SKIP LOCKED" : ""
        let stuck = now.addingTimeInterval(-stuckAfter)
        let rows = try await sql.raw("""
            UPDATE reminders SET status = \(bind: Status.sending.rawValue), claimed_at = \(bind: now), claimed_by = \(bind: worker)
            WHERE id IN (
                SELECT id FROM reminders
                WHERE (status = \(bind: Status.pending.rawValue) AND due_at <= \(bind: now))
                   OR (status = \(bind: Status.sending.rawValue) AND claimed_at < \(bind: stuck))
                ORDER BY due_at LIMIT \(bind: limit) \(locking))
            RETURNING id, beep_id, participant_id, study_id, sequence, due_at
            """).all()
        return try rows.map { row in
            ClaimedReminder(
                id: try row.decode(column: "id", as: UUID.self), beepID: try row.decode(column: "beep_id", as: UUID.self),
                participantID: try row.decode(column: "participant_id", as: UUID.self),
                studyID: try row.decode(column: "study_id", as: UUID.self),
                sequence: try row.decode(column: "sequence", as: Int.self), dueAt: try row.decode(column: "due_at", as: Date.self))
        }.sorted { $0.dueAt < $1.dueAt }
    }

    /// The earliest due pending reminder: a wake-up.
    static func earliestPending(on db: any Database) async throws -> Date? {
        try await db.sql.select().column("due_at").from("reminders")
            .where("status", .equal, Status.pending.rawValue)
            .orderBy("due_at").limit(1)
            .first()?.decode(column: "due_at", as: Date.self)
    }

    /// Records how a claimed reminder ended, with its delivery attempt when one was made.
    static func record(
        _ reminder: ClaimedReminder, status: Status, outcome: String, reason: String?, sentAt: Date?,
        attempt: DeliveryAttempt?, on db: any Database
    ) async throws {
        try await db.transaction { tx in
            try await tx.sql.update("reminders")
                .set("status", to: status.rawValue).set("outcome", to: outcome).set("reason", to: reason).set("sent_at", to: sentAt)
                .where("id", .equal, reminder.id).where("status", .equal, Status.sending.rawValue)
                .run()
            try await attempt?.create(on: tx)
        }
    }
}
