import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// One batch: one transaction, a savepoint per submission, one commit.
extension ResponseWriter {
    /// The outcome of each item, in order, once the batch is committed. Throws (having stored
    /// nothing) when the batch as a whole failed; an item's own refusal is its result instead.
    static func store(_ items: [Item], on database: any Database) async throws -> [Result<Outcome, any Error>] {
        try await database.withConnection { connection in
            let sql = try Self.sql(connection)
            // IMMEDIATE takes SQLite's write lock at once, so the batch never fails half-way for
            // want of it (a deferred transaction that reads first may be refused the upgrade).
            try await sql.raw(sql.dialect.name == "sqlite" ? "BEGIN IMMEDIATE" : "BEGIN").run()
            do {
                var results: [Result<Outcome, any Error>] = []
                // Two submissions of one key in one batch: the first is stored, the second gets its receipt.
                var byKey: [IdempotencyKey: Result<Outcome, any Error>] = [:]
                for item in items {
                    let key = IdempotencyKey(participantID: item.draft.participantID, key: item.draft.idempotencyKey)
                    if let first = byKey[key] {
                        results.append(first.map { Outcome(receipt: $0.receipt, created: false) })
                        continue
                    }
                    let result = try await storeOne(item, on: connection, sql: sql)
                    byKey[key] = result
                    results.append(result)
                }
                try await sql.raw("COMMIT").run()
                return results
            } catch {
                try? await sql.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    private struct IdempotencyKey: Hashable {
        let participantID: UUID
        let key: String
    }

    /// Stores one item under a savepoint. A refusal of this item (its beep taken, its key stored
    /// already, a constraint it breaks) rolls back to the savepoint and is returned; only a
    /// failure of the transaction itself is thrown.
    private static func storeOne(_ item: Item, on db: any Database, sql: any SQLDatabase) async throws -> Result<Outcome, any Error> {
        try await sql.raw("SAVEPOINT response").run()
        do {
            var draft = item.draft
            if let beepID = draft.beepID {
                // Of two answers to one beep the first in the batch (or an earlier batch) takes it.
                let taken = try await sql.raw("""
                    UPDATE beeps SET status = \(bind: Beep.Status.answered.rawValue), answered_at = \(bind: draft.receivedAt)
                    WHERE id = \(bind: beepID) AND status = \(bind: Beep.Status.sent.rawValue) RETURNING id
                    """).all()
                if taken.isEmpty {
                    guard !item.beepNamed else { throw APIError(.beepNotAnswerable, "This beep has already been answered.") }
                    // No beep awaits an answer any more, so this response was volunteered.
                    draft.beepID = nil
                    draft.volunteered = true
                    draft.delaySeconds = nil
                }
            }
            let response = try await ResponseRecorder.record(draft, answers: item.answers, context: item.context, on: db)
            try await sql.raw("RELEASE SAVEPOINT response").run()
            return .success(Outcome(receipt: try ResponseIngestService.receipt(of: response), created: true))
        } catch {
            try await sql.raw("ROLLBACK TO SAVEPOINT response").run()
            try await sql.raw("RELEASE SAVEPOINT response").run()
            // A retried upload whose first copy a committed batch holds gets that copy's receipt.
            if let existing = try await ResponseIngestService.existingResponse(
                participantID: item.draft.participantID, key: item.draft.idempotencyKey, on: db) {
                return .success(Outcome(receipt: try ResponseIngestService.receipt(of: existing), created: false))
            }
            return .failure(error)
        }
    }

    private static func sql(_ db: any Database) throws -> any SQLDatabase {
        guard let sql = db as? any SQLDatabase else {
            throw APIError(.internalServerError, code: "internal_error", "Responses are stored only in SQL databases.")
        }
        return sql
    }
}
