import Foundation
import SQLiteNIO

/// The disk's ceiling for durable SQLite writes, measured in the same run as the figure it bounds
/// (the machine is shared and its disk's flush time varies from hour to hour): a scratch SQLite
/// file beside the server's, WAL mode, synchronous FULL, committing `rowsPerCommit` rows of about
/// the size of a response row per transaction for `seconds`.
enum DurableCommitLimit {
    struct Measure {
        let rowsPerCommit: Int
        let commitsPerSecond: Double
        var rowsPerSecond: Double { commitsPerSecond * Double(rowsPerCommit) }
    }

    static func measure(in directory: URL, rowsPerCommit: Int, seconds: Double = 3) async throws -> Measure {
        let path = directory.appendingPathComponent("limit-\(rowsPerCommit)-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        for statement in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
                          "CREATE TABLE rows (id INTEGER PRIMARY KEY, key TEXT NOT NULL, payload TEXT NOT NULL)"] {
            try await connection.query(statement, []) { _ in }
        }
        let payload = SQLiteData.text(String(repeating: "x", count: 200))
        var commits = 0
        var row = 0
        let started = ContinuousClock.now
        while IngestBenchmark.seconds(ContinuousClock.now - started) < seconds {
            try await connection.query("BEGIN", []) { _ in }
            for _ in 0..<rowsPerCommit {
                row += 1
                try await connection.query("INSERT INTO rows (key, payload) VALUES (?, ?)", [.text("row-\(row)"), payload]) { _ in }
            }
            try await connection.query("COMMIT", []) { _ in }
            commits += 1
        }
        let elapsed = IngestBenchmark.seconds(ContinuousClock.now - started)
        try await connection.close()
        return Measure(rowsPerCommit: rowsPerCommit, commitsPerSecond: Double(commits) / elapsed)
    }
}
