import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import Synchronization
import VaporCSQLite

/// Connections to the SQLite file for the reads every participant request makes (the
/// authenticator's), run at once on the calling thread. Through SQLiteNIO a read goes to a
/// thread-pool thread and back: two thread wake-ups, which on two busy cores cost more than the
/// read itself, an indexed lookup (figures: BENCHMARKS.md, `momentary-bench ingest`). In WAL mode a
/// read never waits for the writer, so running it in place holds the caller's thread only for the
/// lookup.
///
/// A caller takes an idle connection for the length of one synchronous call and gives it back,
/// so no two threads use one connection at once; there are as many as calls ever overlapped
/// (about one per core). They are opened as needed and closed with the application.
final class SQLiteReadConnections: Sendable {
    private let path: String
    private let logger: Logger
    private let idle = Mutex<[SQLiteDirectConnection]>([])
    private let closed = Atomic<Bool>(false)

    init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    /// Runs `read` on a connection no other thread is using.
    func withConnection<T>(_ read: (SQLiteDirectConnection) throws -> T) throws -> T {
        guard !closed.load(ordering: .acquiring) else {
            throw SQLiteDirectError(code: SQLITE_MISUSE, message: "The application's SQLite reads are closed.")
        }
        let connection = try idle.withLock { $0.popLast() }
            ?? SQLiteDirectConnection(path: path, logger: logger, eventLoop: MultiThreadedEventLoopGroup.singleton.any())
        defer {
            if closed.load(ordering: .acquiring) { connection.close() } else { idle.withLock { $0.append(connection) } }
        }
        return try read(connection)
    }

    /// Closes the idle connections; reads after this fail.
    func close() {
        closed.store(true, ordering: .releasing)
        let connections = idle.withLock { idle in
            defer { idle = [] }
            return idle
        }
        for connection in connections { connection.close() }
    }
}
