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
