import Fluent
import Foundation
@testable import MomentaryServer
import NIOPosix
import SQLKit
import Testing
import Vapor

/// A direct SQLite connection (the response writer's, and those reads run in place on): what it
/// writes, Fluent's connections read back as written, and SQLite's refusals arrive as Fluent's
/// errors would.
@Suite("A direct SQLite connection")
struct SQLiteDirectConnectionTests {
    @Test("values it binds are read back alike by Fluent's connection, and by its own")
    func valuesRoundTrip() async throws {
        try await withWriterConnection { app, writer in
            try await app.db.sql.raw("CREATE TABLE sample (id, at, n, x, flag, note, missing)").run()
            let id = UUID()
            let at = Date(timeIntervalSince1970: 1_790_000_000.125)
            try writer.run(SQLQueryString("""
                INSERT INTO sample VALUES (\(bind: id), \(bind: at), \(bind: 42), \(bind: 2.5), \(bind: true), \(bind: "snow ☃︎"), NULL)
                """))
            struct Sample: Decodable, Equatable { let id: UUID; let at: Date; let n: Int; let x: Double; let flag: Bool; let note: String; let missing: String? }
            let expected = Sample(id: id, at: at, n: 42, x: 2.5, flag: true, note: "snow ☃︎", missing: nil)
            let byFluent = try await app.db.sql.raw("SELECT * FROM sample").first(decoding: Sample.self)
            #expect(byFluent == expected)
            #expect(try writer.all(SQLRaw("SELECT * FROM sample"), decoding: Sample.self) == [expected])
        }
    }

    @Test("a statement run again with other values reuses its preparation and gets the new values")
    func preparedStatementsTakeNewValues() async throws {
        try await withWriterConnection { _, writer in
            struct Row: Decodable, Equatable { let value: Int }
            for value in [1, 2, 3] {
                let rows = try writer.all(SQLQueryString("SELECT \(bind: value) AS value"), decoding: Row.self)
                #expect(rows == [Row(value: value)])
            }
        }
    }

    @Test("a statement whose plan looked at a bound value is not compiled again when used with new values")
    func reusedStatementsAreNotRecompiled() async throws {
        try await withWriterConnection { app, writer in
            let sql = app.db.sql
            try await sql.raw("CREATE TABLE calls (person TEXT, status TEXT, at REAL)").run()
            try await sql.raw("CREATE INDEX calls_person_at ON calls (person, at)").run()
            struct Row: Decodable, Equatable { let at: Double }
            // The shape of the authenticator's latest-beep query: SQLite's planner notes the value
            // bound for the equality it filters on, and clearing bindings expires the statement.
            func latest(_ person: String, _ status: String) -> SQLQueryString {
                "SELECT at FROM calls WHERE person = \(bind: person) AND status = \(bind: status) ORDER BY at DESC LIMIT 1"
            }
            try await sql.raw("INSERT INTO calls VALUES ('a', 'sent', 1), ('a', 'sent', 2), ('b', 'sent', 3)").run()
            for round in 0..<6 {
                let person = round.isMultiple(of: 2) ? "a" : "b"
                #expect(try writer.all(latest(person, "sent"), decoding: Row.self) == [Row(at: person == "a" ? 2 : 3)])
            }
            var serializer = SQLSerializer(database: writer)
            latest("a", "sent").serialize(to: &serializer)
            struct Counts: Decodable { let run: Int; let reprep: Int }
            let counts = try writer.all(SQLQueryString("SELECT run, reprep FROM sqlite_stmt WHERE sql = \(bind: serializer.sql)"), decoding: Counts.self)
            #expect(counts.map(\.run) == [6])
            #expect(counts.map(\.reprep) == [0], "compiled again at each use")
        }
    }

    @Test("a refused row is a constraint failure and stores nothing; the connection goes on")
    func constraintFailure() async throws {
        try await withWriterConnection { app, writer in
            try await app.db.sql.raw("CREATE TABLE once (key TEXT PRIMARY KEY)").run()
            try writer.run(SQLRaw("INSERT INTO once VALUES ('a')"))
            do {
                try writer.run(SQLRaw("INSERT INTO once VALUES ('b'), ('a')"))
                Issue.record("a duplicate key was stored")
            } catch let error as any DatabaseError {
                #expect(error.isConstraintFailure, "\(error)")
            }
            do {
                try writer.run(SQLRaw("INSERT INTO nowhere VALUES (1)"))
                Issue.record("a missing table was written to")
            } catch let error as any DatabaseError {
                #expect(!error.isConstraintFailure, "\(error)")
            }
            struct Row: Decodable { let key: String }
            #expect(try writer.all(SQLRaw("SELECT key FROM once ORDER BY key"), decoding: Row.self).map(\.key) == ["a"])
        }
    }

    @Test("a commit is made durable (synchronous FULL) and statement journals stay in memory")
    func settings() async throws {
        try await withWriterConnection { _, writer in
            struct Synchronous: Decodable { let synchronous: Int }
            struct TempStore: Decodable { let temp_store: Int }
            let synchronous = try writer.all(SQLRaw("PRAGMA synchronous"), decoding: Synchronous.self)
            let tempStore = try writer.all(SQLRaw("PRAGMA temp_store"), decoding: TempStore.self)
            #expect(synchronous.map(\.synchronous) == [2])
            #expect(tempStore.map(\.temp_store) == [2])
        }
    }

    @Test("foreign keys are enforced, as on Fluent's connections")
    func foreignKeysEnforced() async throws {
        try await withWriterConnection { app, writer in
            let sql = app.db.sql
            try await sql.raw("CREATE TABLE parent (id TEXT PRIMARY KEY)").run()
            try await sql.raw("CREATE TABLE child (parent_id TEXT NOT NULL REFERENCES parent (id))").run()
            do {
                try writer.run(SQLQueryString("INSERT INTO child VALUES (\(bind: UUID()))"))
                Issue.record("a row naming no parent was stored")
            } catch let error as any DatabaseError {
                #expect(error.isConstraintFailure, "\(error)")
            }
        }
    }

    private func withWriterConnection(_ body: (Application, SQLiteDirectConnection) async throws -> Void) async throws {
        try await withSQLiteTestApp { app in
            guard case .sqlite(let path) = app.storage[ConfigurationKey.self]?.database else {
                Issue.record("the test app is not on SQLite")
                return
            }
            let writer = try SQLiteDirectConnection(path: path, logger: app.logger, eventLoop: MultiThreadedEventLoopGroup.singleton.next())
            defer { writer.close() }
            try await body(app, writer)
        }
    }
}
