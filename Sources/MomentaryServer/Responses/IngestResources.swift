import Fluent
import PostgresKit
import SQLKit
import Vapor

/// What ingest keeps for the life of the application: the one writer that commits responses in
/// batches, and the parsed survey versions answers are validated against.
struct IngestResources: Sendable {
    let writer: GroupCommitWriter
    let versions: ParsedSurveyVersions
    /// The writer's own thread, shut down after the writer closes.
    let writerThread: MultiThreadedEventLoopGroup
    /// On SQLite, connections for the reads every participant request makes (the authenticator's).
    let sqliteReads: SQLiteReadConnections?
    /// On PostgreSQL, the same reads of requests arriving together joined into one statement.
    let postgresReads = ReadCoalescers()

    /// The writer for the configured database, with a connection of its own used on its own
    /// thread (see `WriterThread`), so a batch being committed never holds the connection a
    /// request reads with.
    static func make(for configuration: Configuration, on app: Application, logger: Logger) throws -> IngestResources {
        let thread = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let (destination, reads): (WriterThread.Destination, SQLiteReadConnections?) = switch configuration.database {
        case .sqlite(let path): (.sqlite(path: path), SQLiteReadConnections(path: path, logger: logger))
        case .postgres(let url): (.postgres(try DatabaseSetup.postgresConfiguration(url: url, schema: configuration.postgresSchema)), nil)
        }
        let writer = GroupCommitWriter(destination: destination, thread: thread.next(), logger: logger, metrics: app.metrics)
        return IngestResources(writer: writer, versions: ParsedSurveyVersions(), writerThread: thread, sqliteReads: reads)
    }
}

extension IngestResources {
    /// The rows of a read every upload makes: read in place on SQLite (`SQLiteReadConnections`),
    /// where a thread hop costs more than the read; on PostgreSQL joined with the same reads of
    /// other requests waiting then (`ReadCoalescer`), as a statement kept prepared on the
    /// connection `db` lends (`PreparedRead`).
    ///
    /// `db` is made only by the read that runs the statement: making a request's database (Fluent
    /// looks up the driver's types by name each time) showed in the server's CPU for every upload
    /// (figures: BENCHMARKS.md, `momentary-bench ingest`).
    func read<Read: PreparedRead>(_ read: Read, on db: @autoclosure @escaping @Sendable () -> any Database) async throws -> [any SQLRow] {
        if let sqliteReads { return try sqliteReads.withConnection { try $0.rows(Read.query(SQLBind(read.key))) } }
        return try await postgresReads.coalescer(named: Read.name).rows(of: read.key) { keys in
            guard let postgres = db() as? any PostgresDatabase else {
                throw APIError(.internalServerError, code: "internal_error", "Momentary keeps its data in SQLite or PostgreSQL.")
            }
            return try Dictionary(grouping: try await postgres.rows(of: PreparedReadBatch<Read>(keys: keys))) { row in
                try row.decode(column: PreparedReadText.keyColumn, as: UUID.self)
            }
        }
    }
}

extension Application {
    private struct IngestResourcesKey: StorageKey {
        typealias Value = IngestResources
    }

    /// Installed by `configure(_:_:)` (see `IngestResources.make`).
    var ingestResources: IngestResources {
        get {
            guard let ingest = storage[IngestResourcesKey.self] else {
                fatalError("configure(_:_:) installs response ingest before a request is served")
            }
            return ingest
        }
        set { storage[IngestResourcesKey.self] = newValue }
    }
}

/// Stores what is queued for the writer before the databases close. Registered in `configure`
/// after the databases, so it shuts down before them (Vapor shuts handlers down in reverse).
struct GroupCommitWriterLifecycle: LifecycleHandler {
    func shutdownAsync(_ application: Application) async {
        await application.ingestResources.writer.close()
        application.ingestResources.sqliteReads?.close()
        try? await application.ingestResources.writerThread.shutdownGracefully()
    }
}
