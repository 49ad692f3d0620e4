import Fluent
import Foundation
@testable import MomentaryServer
import NIOPosix
import SQLKit
import Testing
import Vapor

/// The connections participant requests read through in place on SQLite: a read never waits for
/// the writer, sees only what is committed, and no two concurrent readers share a connection.
@Suite("SQLite reads in place")
struct SQLiteReadConnectionsTests {
    private struct Row: Decodable, Equatable { let id: Int; let note: String }

    // The limit turns a read waiting for the write lock (for ever) into a failure; 1 minute was
    // exceeded by the set-up alone on a slow machine running the whole suite.
    @Test("a write transaction left open holds up no read, and its rows are seen only once committed",
          .timeLimit(.minutes(5)))
    func readsDoNotWaitForTheWriter() async throws {
        try await withReads { app, path, reads in
            try await app.db.sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, note TEXT)").run()
            try await app.db.sql.raw("INSERT INTO notes VALUES (1, 'committed')").run()
            let writer = try SQLiteDirectConnection(path: path, logger: app.logger, eventLoop: MultiThreadedEventLoopGroup.singleton.next())
            defer { writer.close() }
            try writer.run(SQLRaw("BEGIN IMMEDIATE"))
            try writer.run(SQLRaw("INSERT INTO notes VALUES (2, 'pending')"))
            try writer.run(SQLRaw("UPDATE notes SET note = 'changed' WHERE id = 1"))
            // Were a read to wait for the write lock, it would wait here for ever: the lock's holder
            // is this very thread.
            #expect(try note(1, in: reads) == Row(id: 1, note: "committed"))
            #expect(try note(2, in: reads) == nil)
            try writer.run(SQLRaw("COMMIT"))
            #expect(try note(1, in: reads) == Row(id: 1, note: "changed"))
            #expect(try note(2, in: reads) == Row(id: 2, note: "pending"))
        }
    }

    @Test("readers on many threads at once each read their own row")
    func concurrentReaders() async throws {
        try await withReads { app, _, reads in
            let sql = app.db.sql
            try await sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, note TEXT)").run()
            for id in 0..<40 { try await sql.raw("INSERT INTO notes VALUES (\(bind: id), \(bind: "note \(id)"))").run() }
            let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        var wrong = 0
                        for round in 0..<200 {
                            let id = (task * 7 + round) % 40
                            if try note(id, in: reads) != Row(id: id, note: "note \(id)") { wrong += 1 }
                            if round % 10 == 0 { await Task.yield() }
                        }
                        return wrong
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(mismatches == 0)
        }
    }

    @Test("once closed, reads fail with an error instead of opening the file again")
    func closedReadsFail() async throws {
        try await withReads { app, _, reads in
            try await app.db.sql.raw("CREATE TABLE notes (id INTEGER PRIMARY KEY, note TEXT)").run()
            try await app.db.sql.raw("INSERT INTO notes VALUES (1, 'kept')").run()
            #expect(try note(1, in: reads) == Row(id: 1, note: "kept"))
            reads.close()
            #expect(throws: SQLiteDirectError.self) { try note(1, in: reads) }
        }
    }

    private func note(_ id: Int, in reads: SQLiteReadConnections) throws -> Row? {
        try reads.withConnection { try $0.rows(SQLQueryString("SELECT * FROM notes WHERE id = \(bind: id)")) }
            .first.map { try $0.decode(model: Row.self) }
    }

    private func withReads(_ body: (Application, String, SQLiteReadConnections) async throws -> Void) async throws {
        try await withSQLiteTestApp { app in
            guard case .sqlite(let path) = app.storage[ConfigurationKey.self]?.database else {
                Issue.record("the test app is not on SQLite")
                return
            }
            let reads = SQLiteReadConnections(path: path, logger: app.logger)
            defer { reads.close() }
            try await body(app, path, reads)
        }
    }
}
