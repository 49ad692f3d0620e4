import FluentKit
import SQLKit

/// SQLite's plan of `statement` (the detail lines of EXPLAIN QUERY PLAN) on the migrated schema.
/// A connection plans with the schema it last read, and EXPLAIN alone does not look again: a
/// pooled one may hold the schema from midway through migrating. Reading a table on the same
/// connection first makes it check for changes.
func sqlitePlan(of statement: SQLQueryString, on db: any Database) async throws -> [String] {
    try await db.withConnection { connection in
        let sql = connection.sql
        try await sql.raw("SELECT COUNT(*) FROM sqlite_master").run()
        return try await sql.raw("EXPLAIN QUERY PLAN \(statement)").all().map { try $0.decode(column: "detail", as: String.self) }
    }
}
