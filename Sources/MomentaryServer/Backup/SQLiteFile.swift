import FluentSQLiteDriver
import Foundation
import NIOPosix
import SQLKit

/// Opens one SQLite file on its own, outside any application: the live file to take a snapshot
/// of, or a snapshot to count and check.
enum SQLiteFile {
    static func with<T>(_ path: String, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        let group = MultiThreadedEventLoopGroup.singleton
        // A thread of its own: a snapshot of a large file takes seconds, and must not hold up
        // (or wait for) the threads of a server in the same process.
        let threads = NIOThreadPool(numberOfThreads: 1)
        threads.start()
        let databases = Databases(threadPool: threads, on: group)
        databases.use(.sqlite(.file(path)), as: .sqlite)
        func close() async {
            await databases.shutdownAsync()
            try? await threads.shutdownGracefully()
        }
        guard let database = databases.database(.sqlite, logger: Logger(label: "momentary.backup"), on: group.any()) else {
            await close()
            throw CommandFailure("The SQLite file \(path) cannot be opened.")
        }
        let sql = database.sql
        do {
            let result = try await body(sql)
            await close()
            return result
        } catch {
            await close()
            throw error
        }
    }

    /// Rows in each table (SQLite's own excepted), to record in a manifest and compare after a restore.
    static func tableRowCounts(_ sql: any SQLDatabase) async throws -> [String: Int] {
        struct Table: Decodable { let name: String }
        struct Count: Decodable { let count: Int }
        let tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .all(decoding: Table.self)
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table.name] = try await sql.raw("SELECT COUNT(*) AS count FROM \(ident: table.name)").first(decoding: Count.self)?.count ?? 0
        }
        return counts
    }
}
