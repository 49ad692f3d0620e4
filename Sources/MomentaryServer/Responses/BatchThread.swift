import FluentKit
import Foundation
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// Where the writer's batches run: a thread of their own, so a batch goes from BEGIN to COMMIT
/// without waiting for another thread, while the writer itself goes on taking submissions. It
/// holds the writer's connection, made at the first batch (commands that never store a response
/// never open it) and made again after PostgreSQL's closes.
///
/// On SQLite the statements run at once on this thread (see `BatchStatements`). On PostgreSQL the
/// connection's I/O is on this thread too, and the batch's work prefers it as its executor
/// (`EventLoopTaskExecutor`): otherwise each of the batch's round trips resumed on an event loop
/// busy with HTTP work, and a batch spent a good part of its time waiting to run after BEGIN
/// (figures: BENCHMARKS.md, `momentary-bench ingest`).
actor BatchThread {
    private let destination: ResponseWriter.Destination
    private let thread: any EventLoop
    private let executor: EventLoopTaskExecutor
    private let logger: Logger
    private var sqliteConnection: SQLiteDirectConnection?
    private var postgresConnection: PostgresConnection?

    nonisolated var unownedExecutor: UnownedSerialExecutor { thread.executor.asUnownedSerialExecutor() }

    init(destination: ResponseWriter.Destination, thread: any EventLoop, logger: Logger) {
        self.destination = destination
        self.thread = thread
        self.executor = EventLoopTaskExecutor(thread)
        self.logger = logger
    }

    func store(_ items: [ResponseWriter.Item], seen: [UUID: Date]) async throws -> [Result<ResponseWriter.Outcome, any Error>] {
        let target = try await target()
        return try await withTaskExecutorPreference(executor) {
            try await ResponseWriter.store(items, seen: seen, in: target)
        }
    }

    func close() async {
        sqliteConnection?.close()
        sqliteConnection = nil
        try? await postgresConnection?.close()
        postgresConnection = nil
    }

    /// The writer's connection's name in `pg_stat_activity`, with its schema when one is set, so
    /// that operators (and tests) can tell the writers of several servers apart.
    static func postgresApplicationName(schema: String?) -> String {
        ["momentary response writer", schema].compactMap(\.self).joined(separator: " ")
    }

    private func target() async throws -> BatchTarget {
        switch destination {
        case .postgres(var configuration):
            if let postgresConnection, !postgresConnection.isClosed { return .postgres(postgresConnection) }
            configuration.coreConfiguration.options.additionalStartupParameters.append(
                ("application_name", Self.postgresApplicationName(schema: configuration.searchPath?.first)))
            let connection = try await PostgresConnectionSource(sqlConfiguration: configuration).makeConnection(logger: logger, on: thread).get()
            postgresConnection = connection
            return .postgres(connection)
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
    case postgres(PostgresConnection)
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
        case .postgres(let connection):
            return try await Self.committing(work, on: SQLKitStatements(connection), begin: "BEGIN")
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
