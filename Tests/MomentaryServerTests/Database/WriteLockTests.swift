import Fluent
import Foundation
@testable import MomentaryServer
import SQLKit
import Testing
import Vapor
import VaporCSQLite

/// SQLite refuses at once, without waiting, a transaction that read and then tries to write after
/// another connection committed meanwhile ("database is locked"); a transaction that takes the
/// write lock first waits its turn instead. Another connection here has no busy handler, so it
/// shows the lock at once rather than waiting for it.
@Suite("Taking SQLite's write lock at the start of a transaction")
struct WriteLockTests {
    @Test("a transaction that read first is refused its write once another connection committed")
    func readThenWriteIsRefused() async throws {
        try await withRawConnection { app, other in
            try await app.db.sql.raw("CREATE TABLE notes (n INTEGER)").run()
            await #expect(throws: (any Error).self) {
                try await app.db.transaction { db in
                    _ = try await db.sql.raw("SELECT COUNT(*) AS n FROM notes").all()
                    #expect(other.execute("INSERT INTO notes VALUES (1)") == SQLITE_OK)
                    try await db.sql.raw("INSERT INTO notes VALUES (2)").run()
                }
            }
        }
    }

    @Test("after lockForWriting no other connection can write until the transaction ends")
    func lockForWritingHoldsTheLock() async throws {
        try await withRawConnection { app, other in
            try await app.db.sql.raw("CREATE TABLE notes (n INTEGER)").run()
            try await app.db.transaction { db in
                try await db.lockForWriting()
                #expect(other.execute("INSERT INTO notes VALUES (1)") == SQLITE_BUSY)
                _ = try await db.sql.raw("SELECT COUNT(*) AS n FROM notes").all()
                try await db.sql.raw("INSERT INTO notes VALUES (2)").run()
            }
            #expect(other.execute("INSERT INTO notes VALUES (3)") == SQLITE_OK)
            struct Row: Decodable { let n: Int }
            #expect(try await app.db.sql.raw("SELECT n FROM notes ORDER BY n").all(decoding: Row.self).map(\.n) == [2, 3])
        }
    }

    /// A plain SQLite handle on the test app's file, without a busy handler (opened fully
    /// serialized, so one handle may be used from any thread).
    private final class RawConnection: @unchecked Sendable {
        private var handle: OpaquePointer?
        init(path: String) throws {
            guard sqlite_nio_sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK else {
                throw Abort(.internalServerError, reason: "could not open \(path)")
            }
        }
        deinit { sqlite_nio_sqlite3_close(handle) }
        func execute(_ statement: String) -> Int32 {
            sqlite_nio_sqlite3_exec(handle, statement, nil, nil, nil)
        }
    }

    private func withRawConnection(_ body: (Application, RawConnection) async throws -> Void) async throws {
        try await withSQLiteTestApp { app in
            guard case .sqlite(let path) = app.storage[ConfigurationKey.self]?.database else {
                Issue.record("the test app is not on SQLite")
                return
            }
            try await body(app, try RawConnection(path: path))
        }
    }
}
