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
            try await app.db.sql.raw("PRAGMA journal_mode=WAL").run()
        case .postgres(let url):
            let postgres = try postgresConfiguration(url: url, schema: configuration.postgresSchema)
            app.databases.use(
                .postgres(configuration: postgres, maxConnectionsPerEventLoop: postgresRequestConnectionsPerEventLoop, sqlLogLevel: .trace),
                as: .psql)
            app.databases.use(.postgres(configuration: postgres, sqlLogLevel: .trace), as: .background, isDefault: false)
            // The response writer opens a connection of its own (see `WriterThread`).
            if let schema = configuration.postgresSchema {
                try await app.db.sql.raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run()
            }
        }
    }

    /// PostgreSQL's connection settings for the database URL, in `schema` when one is set.
    static func postgresConfiguration(url: String, schema: String?) throws -> SQLPostgresConfiguration {
        var postgres = try SQLPostgresConfiguration(url: url)
        if let schema {
            postgres.searchPath = [schema]
        }
        return postgres
    }

    /// Connections each event loop's requests read through. With one, every request on a loop
    /// waits its turn for a round trip to the server (64 concurrent uploads queued behind two
    /// connections); a few let the server work on several at once. Opened only when needed.
    static let postgresRequestConnectionsPerEventLoop = 4

    /// True when the database answers a trivial query.
    static func isReachable(_ db: any Database) async -> Bool {
        do {
            try await db.sql.raw("SELECT 1").run()
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
}

extension Application {
    /// The database for background work: `.background` when registered, else the default.
    var backgroundDB: any Database {
        databases.configuration(for: .background) != nil ? db(.background) : db
    }
}
