import Fluent
import SQLKit

/// Fluent's schema builder makes unique constraints but not plain indexes; these helpers make the
/// lookup indexes the queries rely on, through SQLKit so one statement serves SQLite and PostgreSQL.
enum SQLIndex {
    static func create(_ name: String, on table: String, columns: [String], unique: Bool = false, in database: any Database) async throws {
        let sql = database.sql
        var builder = sql.create(index: name).on(table)
        if unique { builder = builder.unique() }
        for column in columns { builder = builder.column(column) }
        try await builder.run()
    }

    static func drop(_ name: String, in database: any Database) async throws {
        let sql = database.sql
        try await sql.drop(index: name).ifExists().run()
    }
}
