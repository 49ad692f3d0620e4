import FluentKit
import Foundation
import Logging
import NIOCore
import SQLKit

/// Where the writer's batches run: a thread of their own, so a batch on SQLite goes from BEGIN to
/// COMMIT without waiting for another thread (see `BatchStatements`), while the writer itself
/// goes on taking submissions. It holds the writer's SQLite connection, made at the first batch
/// (commands that never store a response never open it).
actor BatchThread {
    private let destination: ResponseWriter.Destination
    private let thread: any EventLoop
    private let logger: Logger
    private var sqliteConnection: SQLiteDirectConnection?

    nonisolated var unownedExecutor: UnownedSerialExecutor { thread.executor.asUnownedSerialExecutor() }

    init(destination: ResponseWriter.Destination, thread: any EventLoop, logger: Logger) {
        self.destination = destination
        self.thread = thread
        self.logger = logger
    }

    func store(_ items: [ResponseWriter.Item], seen: [UUID: Date]) async throws -> [Result<ResponseWriter.Outcome, any Error>] {
        try await ResponseWriter.store(items, seen: seen, in: target())
    }

    func close() {
        sqliteConnection?.close()
        sqliteConnection = nil
    }

    private func target() throws -> BatchTarget {
        switch destination {
        case .database(let database):
            return .database(database)
        case .sqlite(let path):
            if let sqliteConnection { return .sqlite(sqliteConnection) }
            let connection = try SQLiteDirectConnection(path: path, logger: logger, eventLoop: thread)
            sqliteConnection = connection
            return .sqlite(connection)
        }
    }
}

/// Where the writer stores its batches (see `ResponseWriter.Destination`), opened.
enum BatchTarget: Sendable {
    case database(any Database)
    case sqlite(SQLiteDirectConnection)

    /// Runs `work` in one transaction and commits it; rolls back and rethrows if it throws.
    nonisolated(nonsending) func transaction<T: Sendable>(
        _ work: nonisolated(nonsending) @escaping @Sendable (any BatchStatements) async throws -> T
    ) async throws -> T {
        switch self {
        case .sqlite(let connection):
            // IMMEDIATE takes SQLite's write lock at once, so the batch never fails half-way for
            // want of it (a deferred transaction that reads first may be refused the upgrade).
            return try await Self.committing(work, on: connection, begin: "BEGIN IMMEDIATE")
        case .database(let database):
            // PostgreSQL (SQLite batches always go through the writer's own connection).
            return try await database.withConnection { connection in
                try await Self.committing(work, on: try SQLKitStatements(connection), begin: "BEGIN")
            }
        }
    }

    nonisolated(nonsending) private static func committing<T: Sendable>(
        _ work: nonisolated(nonsending) @Sendable (any BatchStatements) async throws -> T, on statements: any BatchStatements, begin: String
    ) async throws -> T {
        try await statements.perform(SQLRaw(begin))
        do {
            let result = try await work(statements)
            try await statements.perform(SQLRaw("COMMIT"))
            return result
        } catch {
            try? await statements.perform(SQLRaw("ROLLBACK"))
            throw error
        }
    }
}
