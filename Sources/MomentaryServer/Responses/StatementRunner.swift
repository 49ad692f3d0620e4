import FluentKit
import PostgresKit
import PostgresNIO
import SQLKit
import Synchronization

/// Where the response writer's statements run: the writer's own PostgreSQL connection (through
/// SQLKit, and prepared statements on it), or its own SQLite connection
/// (`SQLiteDirectConnection`), which runs them at once on the calling thread. The functions are
/// `nonisolated(nonsending)` so that the writer's batch, which calls them from its own thread,
/// stays there instead of resuming on the busy event loops.
protocol StatementRunner: Sendable {
    /// For building and serializing statements (dialect, builders).
    var sql: any SQLDatabase { get }
    nonisolated(nonsending) func perform(_ statement: any SQLExpression) async throws
    nonisolated(nonsending) func rows<Row: Decodable>(_ statement: any SQLExpression, decoding: Row.Type) async throws -> [Row]
    /// The PostgreSQL connection the statements run on, for prepared statements; nil elsewhere.
    var postgresConnection: PostgresConnection? { get }
}

extension StatementRunner {
    var postgresConnection: PostgresConnection? { nil }
}

/// Statements through SQLKit, on one of its databases or connections.
struct SQLKitStatementRunner: StatementRunner {
    let sql: any SQLDatabase
    let postgresConnection: PostgresConnection?

    /// The statements of the writer's PostgreSQL connection.
    init(_ connection: PostgresConnection) {
        sql = connection.sql()
        postgresConnection = connection
    }

    /// The statements of one of SQLKit's databases or connections.
    init(_ sql: any SQLDatabase) {
        self.sql = sql
        postgresConnection = nil
    }

    nonisolated(nonsending) func perform(_ statement: any SQLExpression) async throws {
        try await sql.execute(sql: statement) { _ in }
    }

    nonisolated(nonsending) func rows<Row: Decodable>(_ statement: any SQLExpression, decoding: Row.Type) async throws -> [Row] {
        let collected = RowCollector()
        try await sql.execute(sql: statement) { row in collected.rows.withLock { $0.append(row) } }
        return try collected.rows.withLock { try $0.map { try $0.decode(model: Row.self) } }
    }
}

/// The rows SQLKit hands to a callback one at a time, gathered for `rows(_:decoding:)`.
private final class RowCollector: Sendable {
    let rows = Mutex<[any SQLRow]>([])
}

extension SQLiteDirectConnection: StatementRunner {
    var sql: any SQLDatabase { self }

    nonisolated(nonsending) func perform(_ statement: any SQLExpression) async throws {
        try run(statement)
    }

    nonisolated(nonsending) func rows<Row: Decodable>(_ statement: any SQLExpression, decoding: Row.Type) async throws -> [Row] {
        try all(statement, decoding: Row.self)
    }
}
