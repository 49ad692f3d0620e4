import FluentKit
import SQLKit

extension Database {
    /// This database as SQL: the one way the code reaches SQLKit from Fluent. Momentary configures
    /// only SQLite and PostgreSQL (`DatabaseSetup`), and both of Fluent's drivers are SQL
    /// databases, so a database that is not is a programming error, not a condition to handle.
    public var sql: any SQLDatabase {
        guard let sql = self as? any SQLDatabase else {
            preconditionFailure("Momentary keeps its data only in SQL databases (SQLite or PostgreSQL); \(type(of: self)) is not one")
        }
        return sql
    }
}
