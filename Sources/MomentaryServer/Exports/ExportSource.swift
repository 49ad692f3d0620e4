import Foundation
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization

/// Where an export reads its rows. On an SQLite file that is a connection of the export's own,
/// used synchronously on a thread-pool thread (`SQLiteDirectConnection`), one query at a time;
/// it closes when the export's reader is gone. Anything else (PostgreSQL, or an in-memory
/// SQLite database, which only its own connections can see) is read through `sql`.
final class ExportSource: Sendable {
    let sql: any SQLDatabase
    private let direct: SQLiteDirectConnection?
    /// Held for each query on `direct`: reads come one after another, and this keeps it so.
    private let lock = Mutex(())

    private init(sql: any SQLDatabase, direct: SQLiteDirectConnection?) {
        self.sql = sql
        self.direct = direct
    }

    static func open(_ sql: any SQLDatabase) async throws -> ExportSource {
        guard sql is any SQLiteDatabase else { return ExportSource(sql: sql, direct: nil) }
        struct MainFile: Decodable { let file: String }
        let file = try await sql.raw("SELECT file FROM pragma_database_list WHERE name = 'main'").first(decoding: MainFile.self)?.file
        guard let file, !file.isEmpty else { return ExportSource(sql: sql, direct: nil) }
        let connection = try await NIOThreadPool.singleton.runIfActive {
            try SQLiteDirectConnection(path: file, logger: sql.logger, eventLoop: sql.eventLoop)
        }
        return ExportSource(sql: sql, direct: connection)
    }

    /// The rows of `query`, each made by `each` from its values by position; nil when this source
    /// has no connection of its own (read through `sql` instead).
    func readDirectly<Row: Sendable>(
        _ query: SQLQueryString, each: @escaping @Sendable (SQLiteDirectValues) -> Row
    ) async throws -> [Row]? {
        guard let direct else { return nil }
        return try await NIOThreadPool.singleton.runIfActive { [self] in
            try lock.withLock { _ in
                var rows: [Row] = []
                try direct.forEachRow(query) { rows.append(each($0)) }
                return rows
            }
        }
    }
}
