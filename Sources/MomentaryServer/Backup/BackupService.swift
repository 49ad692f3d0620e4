import Fluent
import Foundation
import SQLKit

/// Backs up a data directory while the server runs, checks a backup by restoring it aside, and
/// restores one into an empty data directory (and database).
///
/// The database snapshot is consistent by itself (SQLite's `VACUUM INTO` reads one transaction;
/// `pg_dump` one snapshot). Uploaded files are never changed once written, so copying the files
/// the snapshot lists after it is taken gives a backup whose every row has its file.
enum BackupService {
    typealias Progress = @Sendable (String) -> Void

    struct BackupSummary {
        let snapshot: String
        let manifest: BackupManifest
        let filesCopied: Int
        let filesAlreadyBackedUp: Int
        let warnings: [String]
    }

    static func backup(
        _ configuration: Configuration, key: BackupKey, to folder: URL, now: Date = Date(), progress: @escaping Progress
    ) async throws -> BackupSummary {
        let repository = BackupRepository(root: folder)
        let partial = try repository.startSnapshot(now: now)
        // The plain database copy stays beside the live data, never in the backup folder; one
        // left by a backup that was killed is removed by the next.
        removeStalePlainCopies(in: configuration.dataDirectory, now: now)
        let plain = configuration.dataDirectory.appendingPathComponent(".backup-\(UUID().uuidString).tmp")
        defer { try? FileManager.default.removeItem(at: plain) }
        do {
            let engine: BackupManifest.Engine
            let tableRows: [String: Int]
            let listed: [StoredFile]
            switch configuration.database {
            case .sqlite(let path):
                guard FileManager.default.fileExists(atPath: path) else {
                    throw CommandFailure("There is no database at \(path) to back up (is --data or MOMENTARY_DATA_DIR right?).")
                }
                engine = .sqlite
                try await SQLiteFile.with(path) { sql in
                    try await sql.raw("VACUUM INTO \(bind: plain.path)").run()
                }
                (tableRows, listed) = try await SQLiteFile.with(plain.path) { sql in
                    (try await SQLiteFile.tableRowCounts(sql), try await storedFiles(sql))
                }
            case .postgres(let url):
                engine = .postgresql
                tableRows = [:]
                try PostgresTools.dump(url: url, schema: configuration.postgresSchema, to: plain)
                // Listed after the dump: a file uploaded in between is copied without a row
                // (harmless); every row in the dump has its file.
                listed = try await AppFactory.withApp(configuration) { app in
                    try await storedFiles(app.db.sql)
                }
            }
            let database = try EncryptedFile.encrypt(plain, to: partial.appendingPathComponent(BackupManifest.databaseFileName), key: key)
            progress("Database: \(ByteText.describe(database.byteCount)) encrypted.")
            let copy = try copyFiles(listed, from: BlobStore(dataDirectory: configuration.dataDirectory), into: repository, key: key, progress: progress)
            let manifest = BackupManifest(
                createdAt: now, engine: engine, postgresSchema: configuration.postgresSchema,
                database: database, tableRows: tableRows, files: copy.files)
            try manifest.write(to: partial, key: key)
            let name = try repository.finish(partial, startedAt: now)
            return BackupSummary(snapshot: name, manifest: manifest, filesCopied: copy.copied,
                                 filesAlreadyBackedUp: copy.files.count - copy.copied, warnings: copy.warnings)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Plain database copies an interrupted backup left, an hour old or more (a younger one may
    /// belong to a backup still running).
    private static func removeStalePlainCopies(in directory: URL, now: Date) {
        let files = FileManager.default
        for name in (try? files.contentsOfDirectory(atPath: directory.path)) ?? []
        where (name.hasPrefix(".backup-") || name.hasPrefix(".restore-")) && name.hasSuffix(".tmp") {
            let path = directory.appendingPathComponent(name).path
            let modified = (try? files.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? now
            if now.timeIntervalSince(modified) > 3_600 { try? files.removeItem(atPath: path) }
        }
    }

    /// A row of the `blobs` table: an uploaded file as the database knows it.
    struct StoredFile: Decodable {
        let storagePath: String
        let sha256: String

        enum CodingKeys: String, CodingKey {
            case storagePath = "storage_path", sha256
        }
    }

    static func storedFiles(_ sql: any SQLDatabase) async throws -> [StoredFile] {
        try await sql.raw("SELECT storage_path, sha256 FROM blobs ORDER BY storage_path").all(decoding: StoredFile.self)
    }

    /// Encrypts each listed file into the repository's objects unless an earlier backup holds it.
    private static func copyFiles(
        _ listed: [StoredFile], from store: BlobStore, into repository: BackupRepository, key: BackupKey, progress: @escaping Progress
    ) throws -> (files: [BackupManifest.File], copied: Int, warnings: [String]) {
        var files: [BackupManifest.File] = []
        var copied = 0
        var warnings: [String] = []
        let meter = ProgressMeter(total: listed.count, noun: "uploaded files backed up", progress: progress)
        for row in listed {
            defer { meter.advance() }
            let source = store.root.appendingPathComponent(row.storagePath)
            let name = key.objectName(forSHA256: row.sha256)
            let object = repository.object(name)
            if let byteCount = existingObjectSize(object, sourceFile: source) {
                files.append(.init(storagePath: row.storagePath, object: name, sha256: row.sha256, byteCount: byteCount))
                continue
            }
            guard FileManager.default.fileExists(atPath: source.path) else {
                warnings.append("blobs/\(row.storagePath) is listed in the database but missing on disk; it is not in the backup.")
                continue
            }
            let digest = try EncryptedFile.encrypt(source, to: object, key: key)
            if digest.sha256 != row.sha256 {
                warnings.append("blobs/\(row.storagePath) does not match the checksum recorded when it was uploaded; backed up as it is now.")
            }
            files.append(.init(storagePath: row.storagePath, object: name, sha256: digest.sha256, byteCount: digest.byteCount))
            copied += 1
        }
        meter.finish()
        return (files, copied, warnings)
    }

    /// The plaintext size of a file an earlier backup already holds (its source's size: the
    /// object's name comes from the same content), or nil to copy it now.
    private static func existingObjectSize(_ object: URL, sourceFile: URL) -> Int? {
        guard FileManager.default.fileExists(atPath: object.path),
              let size = (try? FileManager.default.attributesOfItem(atPath: sourceFile.path)[.size]) as? NSNumber
        else { return nil }
        return size.intValue
    }
}

/// Says "N of M …" during a long loop (at most every two seconds), and once at the end.
final class ProgressMeter {
    private let total: Int
    private let noun: String
    private let progress: BackupService.Progress
    private let throttle = ThrottledReport()
    private var done = 0

    init(total: Int, noun: String, progress: @escaping BackupService.Progress) {
        self.total = total
        self.noun = noun
        self.progress = progress
    }

    func advance() {
        done += 1
        guard done < total else { return }
        throttle.ifDue { seconds in progress("… \(done) of \(total) \(noun) (\(seconds) s)") }
    }

    func finish() {
        if total > 0 { progress("\(total) \(noun).") }
    }
}

/// Sizes in words people read.
enum ByteText {
    static func describe(_ count: Int) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(count), countStyle: .file)
    }
}
