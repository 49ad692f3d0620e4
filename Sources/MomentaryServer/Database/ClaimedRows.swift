import Fluent
import Foundation
import SQLKit

/// Exactly-once work as claimed rows (DESIGN.md): a worker moves due rows from pending to
/// sending, with its name and the time, in one statement (on PostgreSQL skipping rows another
/// worker has locked), attempts them, and records each outcome. A row left sending by a worker
/// that stopped is claimed again once `stuckAfter` has passed. The mail outbox, webhook
/// deliveries and message pushes claim this way; each names its own table and columns.
struct ClaimedRows {
    let table: String
    /// The column holding the row's state, and its pending and sending values.
    var stateColumn = "status"
    var pending = "pending"
    var sending = "sending"
    /// When a pending row falls due (a retry's later attempt); nil: due at once. Rows are claimed in its order.
    var dueColumn: String?
    var orderColumn: String
    var claimedAtColumn = "claimed_at"
    var claimedByColumn = "claimed_by"
    /// Whether each claim counts an attempt (`attempts = attempts + 1`).
    var countsAttempts = false
    /// The columns the claimed rows come back with.
    let returning: [String]

    func claim(at now: Date, stuckAfter: TimeInterval, limit: Int, worker: String, on db: any Database) async throws -> [any SQLRow] {
        let sql = db.sql
        let locking: SQLQueryString = sql.dialect.name == "postgresql" ? " FOR UPDATE SKIP LOCKED" : ""
        let due: SQLQueryString = dueColumn.map { " AND \(unsafeRaw: $0) <= \(bind: now)" } ?? ""
        let attempts: SQLQueryString = countsAttempts ? ", attempts = attempts + 1" : ""
        return try await sql.raw("""
            UPDATE \(unsafeRaw: table) SET \(unsafeRaw: stateColumn) = \(bind: sending), \(unsafeRaw: claimedAtColumn) = \(bind: now),
                \(unsafeRaw: claimedByColumn) = \(bind: worker)\(attempts)
            WHERE id IN (
                SELECT id FROM \(unsafeRaw: table)
                WHERE (\(unsafeRaw: stateColumn) = \(bind: pending)\(due))
                   OR (\(unsafeRaw: stateColumn) = \(bind: sending) AND \(unsafeRaw: claimedAtColumn) < \(bind: now.addingTimeInterval(-stuckAfter)))
                ORDER BY \(unsafeRaw: orderColumn) LIMIT \(bind: limit)\(locking))
            RETURNING \(unsafeRaw: returning.joined(separator: ", "))
            """).all()
    }
}
