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
/// On SQLite the statements run at once on this thread (see `StatementRunner`). On PostgreSQL the
/// connection's I/O is on this thread too, and the batch's work prefers it as its executor
/// (`EventLoopTaskExecutor`): otherwise each of the batch's round trips resumed on an event loop
/// busy with HTTP work, and a batch spent a good part of its time waiting to run after BEGIN
/// (figures: BENCHMARKS.md, `momentary-bench ingest`).
actor WriterThread {
    /// Where batches go, through a connection of the writer's own (opened at the first batch):
    /// the embedded SQLite file, or a PostgreSQL server.
    enum Destination: Sendable {
        case sqlite(path: String)
        case postgres(SQLPostgresConfiguration)
    }

    private let destination: Destination
    private let thread: any EventLoop
    private let executor: EventLoopTaskExecutor
    private let logger: Logger
    private var sqliteConnection: SQLiteDirectConnection?
    private var postgresConnection: PostgresConnection?

    nonisolated var unownedExecutor: UnownedSerialExecutor { thread.executor.asUnownedSerialExecutor() }

    init(destination: Destination, thread: any EventLoop, logger: Logger) {
        self.destination = destination
        self.thread = thread
        self.executor = EventLoopTaskExecutor(thread)
        self.logger = logger
    }

    func store(_ items: [ValidatedSubmission], seen: [UUID: Date]) async throws -> [Result<IngestOutcome, any Error>] {
        let target = try await target()
        return try await withTaskExecutorPreference(executor) {
            try await BatchTransaction.store(items, seen: seen, in: target)
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

    private func target() async throws -> WriterConnection {
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
