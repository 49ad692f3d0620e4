import PostgresKit
import PostgresNIO

extension PostgresDatabase {
    /// Runs a prepared statement (prepared on first use by each connection, then kept) on a
    /// connection this database lends, its own inside a transaction, and returns every row: the
    /// statement has completed when this returns.
    func rows<Statement: PostgresPreparedStatement>(of statement: Statement) async throws -> [Statement.Row]
    where Statement.Row: Sendable {
        try await withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                try await connection.execute(statement, logger: connection.logger).reduce(into: []) { $0.append($1) }
            }
        }.get()
    }
}

extension PostgresConnection {
    /// Runs a prepared statement on this connection and returns every row, awaiting it where the
    /// caller runs (the response writer's thread) instead of in a task of its own.
    func rows<Statement: PostgresPreparedStatement>(of statement: Statement) async throws -> [Statement.Row]
    where Statement.Row: Sendable {
        try await execute(statement, logger: logger).reduce(into: []) { $0.append($1) }
    }
}
