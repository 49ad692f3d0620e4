import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Vapor

/// Registers the configured database with Fluent and prepares the embedded SQLite file.
enum DatabaseSetup {
    static func register(_ configuration: Configuration, on app: Application) async throws {
        switch configuration.database {
        case .sqlite(let path):
            app.databases.use(.sqlite(.file(path), sqlLogLevel: .trace), as: .sqlite)
            app.databases.use(.sqlite(.file(path), sqlLogLevel: .trace), as: .background, isDefault: false)
            // WAL lets readers proceed while one connection writes; the mode is stored in the file.
            // Synchronous stays FULL (SQLite's default), so a committed answer survives a crash.
            if let sql = app.db as? any SQLDatabase {
                try await sql.raw("PRAGMA journal_mode=WAL").run()
            }
        case .postgres(let url):
            var postgres = try SQLPostgresConfiguration(url: url)
            if let schema = configuration.postgresSchema {
                postgres.searchPath = [schema]
            }
            app.databases.use(
                .postgres(configuration: postgres, maxConnectionsPerEventLoop: postgresRequestConnectionsPerEventLoop, sqlLogLevel: .trace),
                as: .psql)
            app.databases.use(.postgres(configuration: postgres, sqlLogLevel: .trace), as: .background, isDefault: false)
            app.databases.use(.postgres(configuration: postgres, sqlLogLevel: .trace), as: .ingest, isDefault: false)
            if let schema = configuration.postgresSchema, let sql = app.db as? any SQLDatabase {
                try await sql.raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run()
            }
        }
    }

    /// Connections each event loop's requests read through. With one, every request on a loop
    /// waits its turn for a round trip to the server (64 concurrent uploads queued behind two
    /// connections); a few let the server work on several at once. Opened only when needed.
    static let postgresRequestConnectionsPerEventLoop = 4

    /// True when the database answers a trivial query.
    static func isReachable(_ db: any Database) async -> Bool {
        guard let sql = db as? any SQLDatabase else { return false }
        do {
            try await sql.raw("SELECT 1").run()
            return true
        } catch {
            return false
        }
    }
}

extension DatabaseID {
    /// The same database through connections of their own, for `serve`'s periodic jobs: a
    /// statistics refresh that reads a million answers must not hold the connections requests
    /// wait for (each event loop has one).
    static let background = DatabaseID(string: "background")

    /// The same database for `ResponseWriter` on PostgreSQL, whose batch transactions would
    /// otherwise hold a connection that requests on the same event loop wait for to read (on
    /// SQLite the writer has a connection of its own: `SQLiteDirectConnection`).
    static let ingest = DatabaseID(string: "ingest")
}

extension Application {
    /// The database for background work: `.background` when registered, else the default.
    var backgroundDB: any Database {
        databases.configuration(for: .background) != nil ? db(.background) : db
    }
}
