import Fluent
import Foundation
import MomentaryCore
import SQLKit

extension BackupService {
    struct RestoreSummary {
        let snapshot: String
        let manifest: BackupManifest
    }

    /// Restores a backup (the newest, or the one named) into the configured data directory and
    /// database, which must be empty unless `force` allows replacing what is there. Stop the
    /// server first.
    static func restore(
        from folder: URL, snapshot name: String? = nil, into configuration: Configuration, key: BackupKey,
        force: Bool, progress: @escaping Progress
    ) async throws -> RestoreSummary {
        let snapshot = try BackupRepository(root: folder).snapshot(named: name)
        let manifest = try readManifest(snapshot, key: key)
        let store = BlobStore(dataDirectory: configuration.dataDirectory)
        let blobsInPlace = containsFiles(store.root)
        switch (manifest.engine, configuration.database) {
        case (.sqlite, .sqlite(let path)):
            let existing = [path, path + "-wal", path + "-shm"].filter { FileManager.default.fileExists(atPath: $0) }
            if !existing.isEmpty || blobsInPlace {
                guard force else { throw notEmpty(configuration.dataDirectory.path) }
                for file in existing { try FileManager.default.removeItem(atPath: file) }
                try? FileManager.default.removeItem(at: store.root)
            }
            try restoreFiles(manifest, of: folder, into: store, key: key, progress: progress)
            let digest = try EncryptedFile.decrypt(snapshot.appendingPathComponent(BackupManifest.databaseFileName),
                                                   to: URL(fileURLWithPath: path), key: key)
            try check(digest, against: manifest.database, what: "the database")
        case (.postgresql, .postgres(let url)):
            guard configuration.postgresSchema == manifest.postgresSchema else {
                let wanted = manifest.postgresSchema.map { "DATABASE_SCHEMA=\($0)" } ?? "no DATABASE_SCHEMA"
                throw CommandFailure("This backup holds a PostgreSQL schema restored with \(wanted); set it so and try again.")
            }
            let plain = configuration.dataDirectory.appendingPathComponent(".restore-\(UUID().uuidString).tmp")
            defer { try? FileManager.default.removeItem(at: plain) }
            let digest = try EncryptedFile.decrypt(snapshot.appendingPathComponent(BackupManifest.databaseFileName), to: plain, key: key)
            try check(digest, against: manifest.database, what: "the database")
            try await AppFactory.withApp(configuration) { app in
                let sql = app.db.sql
                struct Count: Decodable { let count: Int }
                let tables = try await sql.raw("SELECT COUNT(*) AS count FROM information_schema.tables WHERE table_schema = current_schema()")
                    .first(decoding: Count.self)?.count ?? 0
                if tables > 0 || blobsInPlace {
                    guard force else { throw notEmpty("the database and \(configuration.dataDirectory.path)") }
                    try? FileManager.default.removeItem(at: store.root)
                }
                // The dump creates its own schema.
                if let schema = configuration.postgresSchema {
                    try await sql.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
                }
            }
            try restoreFiles(manifest, of: folder, into: store, key: key, progress: progress)
            try PostgresTools.restore(plain, url: url, clean: force && configuration.postgresSchema == nil)
        case (.sqlite, .postgres):
            throw CommandFailure("This backup is of an embedded SQLite database; unset DATABASE_URL to restore it into a data directory.")
        case (.postgresql, .sqlite):
            throw CommandFailure("This backup is of a PostgreSQL database; set DATABASE_URL to the (empty) database to restore it into.")
        }
        return RestoreSummary(snapshot: snapshot.lastPathComponent, manifest: manifest)
    }

    struct VerifyReport {
        let snapshot: String
        let manifest: BackupManifest
        let problems: [String]
        /// Whether the database's own structure was checked (SQLite always; PostgreSQL where `pg_restore` is installed).
        let structureChecked: Bool
    }

    /// Restores a backup into a temporary folder and compares everything with its manifest:
    /// the database's hash and, for SQLite, its integrity and rows per table; every uploaded file's hash.
    static func verify(_ folder: URL, snapshot name: String? = nil, key: BackupKey, progress: @escaping Progress) async throws -> VerifyReport {
        let snapshot = try BackupRepository(root: folder).snapshot(named: name)
        let manifest = try readManifest(snapshot, key: key)
        let scratch = try ScratchFolder.make("verify")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var problems: [String] = []
        let database = scratch.appendingPathComponent("database")
        var structureChecked = false
        do {
            let digest = try EncryptedFile.decrypt(snapshot.appendingPathComponent(BackupManifest.databaseFileName), to: database, key: key)
            try check(digest, against: manifest.database, what: "the database")
            switch manifest.engine {
            case .sqlite:
                problems += try await SQLiteFile.with(database.path) { sql in
                    try await sqliteProblems(sql, manifest: manifest)
                }
                structureChecked = true
            case .postgresql:
                structureChecked = try PostgresTools.checkReadable(database)
            }
        } catch {
            problems.append(CommandErrorReport.describe(error).message)
        }
        let meter = ProgressMeter(total: manifest.files.count, noun: "uploaded files checked", progress: progress)
        let repository = BackupRepository(root: folder)
        for file in manifest.files {
            defer { meter.advance() }
            let object = repository.object(file.object)
            guard FileManager.default.fileExists(atPath: object.path) else {
                problems.append("blobs/\(file.storagePath) is missing from the backup folder (objects/\(file.object.prefix(2))/\(file.object)).")
                continue
            }
            do {
                let digest = try EncryptedFile.decrypt(object, key: key)
                try check(digest, against: .init(sha256: file.sha256, byteCount: file.byteCount), what: "blobs/\(file.storagePath)")
            } catch {
                problems.append(CommandErrorReport.describe(error).message)
            }
        }
        meter.finish()
        return VerifyReport(snapshot: snapshot.lastPathComponent, manifest: manifest, problems: problems, structureChecked: structureChecked)
    }

    private static func sqliteProblems(_ sql: any SQLDatabase, manifest: BackupManifest) async throws -> [String] {
        var problems: [String] = []
        struct Integrity: Decodable { let integrity_check: String }
        let integrity = try await sql.raw("PRAGMA integrity_check").all(decoding: Integrity.self).map(\.integrity_check)
        if integrity != ["ok"] {
            problems.append("The database fails SQLite's integrity check: \(integrity.prefix(3).joined(separator: "; ")).")
        }
        let counts = try await SQLiteFile.tableRowCounts(sql)
        for (table, expected) in manifest.tableRows.sorted(by: { $0.key < $1.key }) where counts[table] != expected {
            problems.append("Table \(table) has \(counts[table] ?? 0) rows; the backup recorded \(expected).")
        }
        let backedUp = Dictionary(manifest.files.map { ($0.storagePath, $0.sha256) }, uniquingKeysWith: { first, _ in first })
        let missing = try await storedFiles(sql).filter { backedUp[$0.storagePath] == nil }
        if let first = missing.first {
            problems.append("\(missing.count) uploaded file(s) the database lists are not in the backup, such as blobs/\(first.storagePath).")
        }
        return problems
    }

    private static func readManifest(_ snapshot: URL, key: BackupKey) throws -> BackupManifest {
        do {
            return try BackupManifest.read(from: snapshot, key: key)
        } catch let damaged as EncryptedFile.Damaged {
            throw CommandFailure("The backup \(snapshot.lastPathComponent) cannot be opened with this key, or its manifest is damaged (\(damaged.reason)).")
        }
    }

    private static func restoreFiles(_ manifest: BackupManifest, of folder: URL, into store: BlobStore, key: BackupKey, progress: @escaping Progress) throws {
        let repository = BackupRepository(root: folder)
        let meter = ProgressMeter(total: manifest.files.count, noun: "uploaded files restored", progress: progress)
        for file in manifest.files {
            defer { meter.advance() }
            let parts = file.storagePath.split(separator: "/")
            guard !file.storagePath.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
                throw CommandFailure("The backup names a file outside the data directory (\(file.storagePath)); it was not restored.")
            }
            let digest = try EncryptedFile.decrypt(repository.object(file.object), to: store.root.appendingPathComponent(file.storagePath), key: key)
            try check(digest, against: .init(sha256: file.sha256, byteCount: file.byteCount), what: "blobs/\(file.storagePath)")
        }
        meter.finish()
    }

    private static func check(_ digest: EncryptedFile.Digest, against expected: EncryptedFile.Digest, what: String) throws {
        guard digest == expected else {
            throw CommandFailure("\(what.prefix(1).uppercased() + what.dropFirst()) does not match the backup's record (SHA-256 \(digest.sha256.prefix(12))…, \(digest.byteCount) bytes; expected \(expected.sha256.prefix(12))…, \(expected.byteCount) bytes).")
        }
    }

    private static func notEmpty(_ place: String) -> CommandFailure {
        CommandFailure("\(place) already holds data; restore into an empty one, or add --force to replace it (stop the server first).")
    }

    private static func containsFiles(_ directory: URL) -> Bool {
        guard let items = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return false }
        for case let item as URL in items where (try? item.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            return true
        }
        return false
    }
}
