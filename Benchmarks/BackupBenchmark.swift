import Fluent
import Foundation
import MomentaryCLI
import MomentaryCore
import MomentaryServer
import SQLKit
import Vapor

/// Backup and restore of a data directory holding `answers` answers (seeded as for the export
/// benchmark) and `photos` photos of 100 KB, through the real commands run in-process: a first
/// backup, a second one (which copies no photo again), `backup verify`, and a restore into an empty
/// directory. Beside them, from the same run, the floor any backup pays: `sqlite3` writing a
/// snapshot of the same file (`VACUUM INTO`) plus `cp -r` of the photos.
enum BackupBenchmark {
    static func run(answers: Int, photos: Int) async throws {
        try await BenchmarkApp.run("backup") { app, directory in
            _ = try await ExportSeeder(answers: answers).seed(app.db)
            try await seedPhotos(photos, in: directory, on: app.db)
            let scratch = try ScratchFolder.make("backup-bench")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let key = scratch.appendingPathComponent("backup.key")
            try Data((0..<32).map { _ in UInt8.random(in: 0...255) }).write(to: key)
            setenv("MOMENTARY_BACKUP_KEY_FILE", key.path, 1)
            let repository = scratch.appendingPathComponent("backups").path
            let data = directory.path

            let first = try await timed(["backup", "--to", repository, "--data", data])
            let second = try await timed(["backup", "--to", repository, "--data", data])
            let verify = try await timed(["backup", "verify", repository])
            let restore = try await timed(["restore", "--from", repository, "--data", scratch.appendingPathComponent("restored").path])

            let database = directory.appendingPathComponent(Configuration.sqliteFileName).path
            let snapshotFloor = try wallSeconds("/usr/bin/sqlite3", [database, "VACUUM INTO '\(scratch.path)/floor.sqlite'"])
            let copyFloor = try wallSeconds("/bin/cp", ["-r", directory.appendingPathComponent("blobs").path, scratch.appendingPathComponent("floor-blobs").path])
            let size = (try FileManager.default.attributesOfItem(atPath: database)[.size] as? NSNumber)?.intValue ?? 0
            let fields: [(String, String)] = [
                ("benchmark", "\"backup\""),
                ("answers", String(answers)),
                ("photos", String(photos)),
                ("database_mb", String(format: "%.1f", Double(size) / 1_048_576)),
                ("backup_seconds", String(format: "%.2f", first)),
                ("second_backup_seconds", String(format: "%.2f", second)),
                ("verify_seconds", String(format: "%.2f", verify)),
                ("restore_seconds", String(format: "%.2f", restore)),
                ("floor_snapshot_plus_copy_seconds", String(format: "%.2f", snapshotFloor + copyFloor)),
                ("ratio_backup_to_floor", String(format: "%.2f", first / (snapshotFloor + copyFloor))),
            ]
            printResult(fields)
        }
    }

    /// Photos of 100 KB of random bytes (incompressible, like JPEG) attached to the first responses.
    private static func seedPhotos(_ count: Int, in directory: URL, on db: any Database) async throws {
        struct ResponseRow: Decodable { let id: UUID; let participant_id: UUID }
        struct BlobRow: Encodable, Sendable {
            let id = UUID()
            let participantId: UUID
            let responseId: UUID
            let kind = "photo"
            let storagePath: String
            let contentType = "image/jpeg"
            let byteCount: Int
            let sha256: String
            let isPublic = false
            let createdAt = Date()
        }
        let sql = db.sql
        let responses = try await sql.raw("SELECT id, participant_id FROM responses LIMIT \(unsafeRaw: String(count))").all(decoding: ResponseRow.self)
        let blobs = directory.appendingPathComponent("blobs/photos")
        try FileManager.default.createDirectory(at: blobs, withIntermediateDirectories: true)
        var rows: [BlobRow] = []
        for response in responses {
            let bytes = Data((0..<102_400).map { _ in UInt8.random(in: 0...255) })
            let path = "photos/\(response.id.uuidString.lowercased()).jpg"
            try bytes.write(to: directory.appendingPathComponent("blobs").appendingPathComponent(path))
            rows.append(BlobRow(participantId: response.participant_id, responseId: response.id, storagePath: path,
                                byteCount: bytes.count, sha256: SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()))
        }
        try await BenchmarkApp.insert(rows, into: "blobs", on: sql)
    }

    private static func timed(_ arguments: [String]) async throws -> Double {
        let started = ContinuousClock.now
        let code = await CommandOutput.$current.withValue(CommandOutput(write: { _ in }, writeError: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })) {
            await MomentaryMain.run(arguments)
        }
        guard code == 0 else { throw BenchmarkFailure("momentary \(arguments.joined(separator: " ")) exited \(code)") }
        return seconds(since: started)
    }

    private static func wallSeconds(_ tool: String, _ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let started = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkFailure("\(tool) exited \(process.terminationStatus)") }
        return seconds(since: started)
    }
}
