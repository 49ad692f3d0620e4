import Fluent
import Foundation
import SQLKit

/// The dispatcher's statements on `beeps`: claiming and the safeguards that run before it.
enum BeepStore {
    private static let pending = Beep.Status.pending.rawValue
    private static let sending = Beep.Status.sending.rawValue

    /// Moves up to `limit` due beeps to `sending` in one statement and returns them, oldest first.
    ///
    /// On PostgreSQL the inner `FOR UPDATE SKIP LOCKED` makes concurrent workers take disjoint
    /// sets; on SQLite the statement runs under the database's single write lock. Either way a
    /// beep is claimed by exactly one worker, before any push is attempted.
    static func claimDue(at now: Date, limit: Int, worker: String, on db: any Database) async throws -> [ClaimedBeep] {
        let sql = db.sql
        let rows = try await sql.raw(claimDueStatement(at: now, limit: limit, worker: worker, on: sql)).all()
        return try rows.map(claimed).sorted { $0.scheduledAt < $1.scheduledAt }
    }

    /// `claimDue`'s statement.
    static func claimDueStatement(at now: Date, limit: Int, worker: String, on sql: any SQLDatabase) -> SQLQueryString {
        let locking: SQLQueryString = sql.dialect.name == "postgresql" ? "FOR UPDATE SKIP LOCKED" : ""
        return """
            UPDATE beeps SET status = \(bind: sending), claimed_at = \(bind: now), claimed_by = \(bind: worker)
            WHERE \(BeepLifecycle.guardClause(from: [.pending], to: .sending, column: statusBesideIDs(on: sql))) AND id IN (
                SELECT id FROM beeps WHERE status = \(bind: pending) AND scheduled_at <= \(bind: now)
                ORDER BY scheduled_at LIMIT \(bind: limit) \(locking))
            RETURNING id, participant_id, study_id, origin, scheduled_at, answer_window_minutes, ignores_hours
            """
    }

    /// The `status` column for a guard beside a list of ids, kept out of the index choice so the
    /// ids are found by primary key. Without statistics SQLite guesses that a status names about
    /// ten beeps and walks the (status, scheduled_at) index over every beep of it, a cost that grows
    /// with the beeps in that status; a unary plus hides the column. PostgreSQL does the same when
    /// its statistics predate a burst of sends (it takes the many sent beeps for a few and filters
    /// them all by id); it has no unary plus for text, so there the column is concatenated
    /// (figures: BENCHMARKS.md, `momentary-bench ingest`).
    static func statusBesideIDs(on sql: any SQLDatabase) -> SQLQueryString {
        sql.dialect.name == "sqlite" ? "+status" : "(status || '')"
    }

    /// Claims one pending beep by id (a test beep sent at once); `nil` if it is no longer pending.
    static func claim(_ beepID: UUID, at now: Date, worker: String, on db: any Database) async throws -> ClaimedBeep? {
        try await db.sql.raw("""
            UPDATE beeps SET status = \(bind: sending), claimed_at = \(bind: now), claimed_by = \(bind: worker)
            WHERE id = \(bind: beepID) AND \(BeepLifecycle.guardClause(from: [.pending], to: .sending))
            RETURNING id, participant_id, study_id, origin, scheduled_at, answer_window_minutes, ignores_hours
            """).all().first.map(claimed)
    }

    private static func claimed(_ row: any SQLRow) throws -> ClaimedBeep {
        let origin = try row.decode(column: "origin", as: String.self)
        return ClaimedBeep(
            id: try row.decode(column: "id", as: UUID.self),
            participantID: try row.decode(column: "participant_id", as: UUID.self),
            studyID: try row.decode(column: "study_id", as: UUID.self),
            origin: Beep.Origin(rawValue: origin) ?? .random,
            scheduledAt: try row.decode(column: "scheduled_at", as: Date.self),
            answerWindowMinutes: try row.decodeIfPresent(column: "answer_window_minutes", as: Int.self),
            ignoresHours: try row.decodeIfPresent(column: "ignores_hours", as: Bool.self) ?? false)
    }

    /// The earliest due time of any pending beep: the dispatcher's next wake-up.
    static func earliestPending(on db: any Database) async throws -> Date? {
        try await Beep.query(on: db).filter(\.$status == .pending).sort(\.$scheduledAt).first()?.scheduledAt
    }

    /// Sent beeps whose answer deadline has passed become `expired`; returns how many. Opening a
    /// beep's survey moves its deadline to the end of the time to finish it (`BeepOpening`).
    /// Webhooks taking `beep.expired` are told in the same transaction (test beeps aside).
    static func expireDue(at now: Date, on db: any Database) async throws -> Int {
        try await db.transaction { tx in
            let rows = try await tx.sql.raw("""
                UPDATE beeps SET status = \(bind: Beep.Status.expired.rawValue)
                WHERE \(BeepLifecycle.guardClause(from: [.sent], to: .expired)) AND expires_at <= \(bind: now)
                RETURNING id, origin
                """).all()
            let told = try rows.filter { try $0.decode(column: "origin", as: String.self) != Beep.Origin.test.rawValue }
                .map { try $0.decode(column: "id", as: UUID.self) }
            try await WebhookOutbox.emit(.beepExpired, subjects: told, now: now, on: tx)
            return rows.count
        }
    }

    /// The earliest deadline of a sent beep: a wake-up, so a beep expires on time.
    static func earliestExpiry(on db: any Database) async throws -> Date? {
        try await db.sql.select().column("expires_at").from("beeps")
            .where("status", .equal, Beep.Status.sent.rawValue).where("expires_at", .isNot, SQLLiteral.null)
            .orderBy("expires_at").limit(1)
            .first()?.decode(column: "expires_at", as: Date.self)
    }

    /// Pending beeps due for longer than `lateness` become `missed` (outcome `late`).
    static func markLate(at now: Date, lateness: TimeInterval, on db: any Database) async throws -> Int {
        let cutoff = now.addingTimeInterval(-lateness)
        let reason = "not sent within \(Int(lateness / 60)) minutes of its time (was the signalling service stopped?)"
        return try await db.sql.raw("""
            UPDATE beeps SET status = \(bind: Beep.Status.missed.rawValue), delivery_outcome = 'late', delivery_reason = \(bind: reason)
            WHERE \(BeepLifecycle.guardClause(from: [.pending], to: .missed)) AND scheduled_at < \(bind: cutoff)
            RETURNING id
            """).all().count
    }

    /// Beeps left `sending` by a worker that stopped between claim and record (not seen for
    /// `workerTimeout`, or this worker itself before a restart: `includingOwn`), taken over by this
    /// worker to be sent again. A push that did go out before the crash carries the same identity
    /// (APNs collapse id, Web Push Topic, the notification's tag = beep id), so the phone replaces
    /// it rather than showing the beep twice.
    static func takeOver(
        at now: Date, workerTimeout: TimeInterval, worker: String, includingOwn: Bool, on db: any Database
    ) async throws -> [ClaimedBeep] {
        let live = now.addingTimeInterval(-workerTimeout)
        let own: SQLQueryString = includingOwn ? "" : "AND claimed_by <> \(bind: worker)"
        return try await db.sql.raw("""
            UPDATE beeps SET claimed_at = \(bind: now), claimed_by = \(bind: worker)
            WHERE \(BeepLifecycle.guardClause(from: [.sending], to: .sending)) \(own)
            AND (claimed_by IS NULL OR claimed_by NOT IN (
                SELECT worker_id FROM signalling_workers WHERE seen_at >= \(bind: live) AND worker_id <> \(bind: worker)))
            RETURNING id, participant_id, study_id, origin, scheduled_at, answer_window_minutes, ignores_hours
            """).all().map(claimed).sorted { $0.scheduledAt < $1.scheduledAt }
    }

    /// Records that `worker` is working now; others take over its `sending` beeps once it has
    /// not been seen for their `workerTimeout`.
    static func heartbeat(of worker: String, at now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            INSERT INTO signalling_workers (worker_id, seen_at) VALUES (\(bind: worker), \(bind: now))
            ON CONFLICT (worker_id) DO UPDATE SET seen_at = excluded.seen_at
            """).run()
    }

    /// Due beeps per study (test beeps excluded: a pilot's own beep never trips the safeguard).
    static func dueCounts(at now: Date, on db: any Database) async throws -> [UUID: Int] {
        let sql = db.sql
        // SQLite would rather walk the (study_id, scheduled_at) index, which yields study_id in
        // order, through every beep ever scheduled (seconds at every wake in a large study) than
        // sort the few due ones: name the index that finds only those (figures: BENCHMARKS.md,
        // `Benchmarks/scripts/list_pages_bench.py`).
        let index: SQLQueryString = sql.dialect.name == "postgresql" ? "" : "INDEXED BY beeps_status_scheduled_at"
        let rows = try await sql.raw("""
            SELECT study_id, COUNT(*) AS due FROM beeps \(index)
            WHERE status = \(bind: pending) AND scheduled_at <= \(bind: now) AND origin <> \(bind: Beep.Origin.test.rawValue)
            GROUP BY study_id
            """).all()
        var counts = [UUID: Int]()
        for row in rows {
            counts[try row.decode(column: "study_id", as: UUID.self)] = try row.decode(column: "due", as: Int.self)
        }
        return counts
    }

    /// Withholds the due beeps of these studies: `failed` with outcome `refused`. Returns how many.
    static func refuse(studies: [UUID], at now: Date, reason: String, on db: any Database) async throws -> Int {
        guard !studies.isEmpty else { return 0 }
        return try await db.sql.raw("""
            UPDATE beeps SET status = \(bind: Beep.Status.failed.rawValue), delivery_outcome = 'refused', delivery_reason = \(bind: reason)
            WHERE \(BeepLifecycle.guardClause(from: [.pending], to: .failed)) AND scheduled_at <= \(bind: now)
            AND origin <> \(bind: Beep.Origin.test.rawValue) AND study_id IN (\(binds: studies))
            RETURNING id
            """).all().count
    }
}
