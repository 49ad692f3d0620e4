import FluentKit
import PostgresNIO
import SQLKit

/// Where the writer stores its batches (see `WriterThread.Destination`), opened.
enum WriterConnection: Sendable {
    case postgres(PostgresConnection)
    case sqlite(SQLiteDirectConnection)

    /// Runs `work` in one transaction and commits it; rolls back and rethrows if it throws.
    nonisolated(nonsending) func transaction<T: Sendable>(
        _ work: nonisolated(nonsending) @escaping @Sendable (any StatementRunner) async throws -> T
    ) async throws -> T {
        switch self {
        case .sqlite(let connection):
            // IMMEDIATE takes SQLite's write lock at once, so the batch never fails half-way for
            // want of it (a deferred transaction that reads first may be refused the upgrade).
            return try await Self.committing(work, on: connection, begin: "BEGIN IMMEDIATE")
        case .postgres(let connection):
            return try await Self.committing(work, on: SQLKitStatementRunner(connection), begin: "BEGIN")
        }
    }

    nonisolated(nonsending) private static func committing<T: Sendable>(
        _ work: nonisolated(nonsending) @Sendable (any StatementRunner) async throws -> T, on statements: any StatementRunner, begin: String
    ) async throws -> T {
        try await statements.perform(SQLRaw(begin))
        do {
            let result = try await work(statements)
            try await statements.perform(SQLRaw("COMMIT"))
            return result
        } catch {
            try? await statements.perform(SQLRaw("ROLLBACK"))
            throw error
        }
    }
}
