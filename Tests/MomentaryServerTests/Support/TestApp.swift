import Fluent
import Foundation
@testable import MomentaryCLI
@testable import MomentaryServer
import SQLKit
import Testing
import Synchronization
import VaporTesting

/// The database every server test runs against: a fresh SQLite file in a temporary directory, or,
/// when `MOMENTARY_TEST_DATABASE_URL` is set (CI), a fresh schema on that PostgreSQL server.
enum TestDatabase {
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["MOMENTARY_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var isPostgres: Bool { postgresURL != nil }

    /// A configuration with its own empty data directory (and its own PostgreSQL schema).
    static func makeConfiguration() throws -> Configuration {
        let directory = try TestScratch.folder("momentary-test")
        if let url = postgresURL {
            let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
            return Configuration(
                dataDirectory: directory, database: .postgres(url: url), environmentName: "testing", postgresSchema: String(schema))
        }
        return Configuration(
            dataDirectory: directory,
            database: .sqlite(path: directory.appendingPathComponent(Configuration.sqliteFileName).path),
            environmentName: "testing")
    }

    /// Removes what `makeConfiguration` created.
    static func cleanUp(_ configuration: Configuration, app: Application) async {
        if let schema = configuration.postgresSchema {
            let sql = app.db.sql
            try? await sql.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
        }
        try? FileManager.default.removeItem(at: configuration.dataDirectory)
    }
}

/// Runs `body` with a configured application on a fresh test database; `migrate` applies the schema first.
@discardableResult
func withTestApp<T>(
    migrate: Bool = true,
    timeSource: any TimeSource = SystemTimeSource(),
    adjusting adjust: (inout Configuration) -> Void = { _ in },
    _ body: (Application, Configuration) async throws -> T
) async throws -> T {
    var configuration = try TestDatabase.makeConfiguration()
    adjust(&configuration)
    let app = try await Application.make(.testing)
    // Migration chatter would drown the test report; warnings and errors still show.
    app.logger.logLevel = .warning
    do {
        try await configure(app, configuration, timeSource: timeSource)
        if migrate { try await app.migrateAtomically() }
        let result = try await body(app, configuration)
        await TestDatabase.cleanUp(configuration, app: app)
        try await app.asyncShutdown()
        return result
    } catch {
        // A test that started the HTTP server and then failed has not stopped it; a server left
        // running asserts when it is released, which would end the whole test run, not just this
        // test. Stopping a server that is stopped or never started does nothing.
        await app.server.shutdown()
        await TestDatabase.cleanUp(configuration, app: app)
        try? await app.asyncShutdown()
        throw error
    }
}

/// `withTestApp` on a SQLite file whichever database the suite runs on, for what only SQLite does.
func withSQLiteTestApp(_ body: (Application) async throws -> Void) async throws {
    try await withTestApp(adjusting: { configuration in
        configuration.database = .sqlite(path: configuration.dataDirectory.appendingPathComponent(Configuration.sqliteFileName).path)
        configuration.postgresSchema = nil
    }) { app, _ in try await body(app) }
}

/// Names of the tables in the test database's schema (excluding SQLite's own).
func tableNames(_ db: any Database) async throws -> Set<String> {
    let sql = db.sql
    struct Row: Decodable { let name: String }
    let rows: [Row]
    if TestDatabase.isPostgres {
        rows = try await sql.raw(
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()"
        ).all(decoding: Row.self)
    } else {
        rows = try await sql.raw(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).all(decoding: Row.self)
    }
    return Set(rows.map(\.name))
}

/// Runs the command line in-process and captures what it prints.
func runCommand(_ arguments: [String]) async -> (code: Int32, output: String, errors: String) {
    let captured = CapturedOutput()
    let code = await CommandOutput.$current.withValue(
        CommandOutput(write: { captured.append(out: $0) }, writeError: { captured.append(err: $0) })
    ) {
        await MomentaryMain.run(arguments)
    }
    return (code, captured.output, captured.errors)
}

final class CapturedOutput: Sendable {
    private let lines = Mutex<(out: [String], err: [String])>(([], []))
    func append(out line: String) { lines.withLock { $0.out.append(line) } }
    func append(err line: String) { lines.withLock { $0.err.append(line) } }
    var output: String { lines.withLock { $0.out.joined(separator: "\n") } }
    var errors: String { lines.withLock { $0.err.joined(separator: "\n") } }
}
