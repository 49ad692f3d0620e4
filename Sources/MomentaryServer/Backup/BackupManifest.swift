import Foundation

/// What one backup holds, stored encrypted beside it: the database file's and every uploaded
/// file's hash and size, and the rows per table, so `backup verify` can prove a restore whole.
struct BackupManifest: Codable, Sendable {
    static let currentFormat = 1
    static let fileName = "manifest.enc"
    static let databaseFileName = "database.enc"

    enum Engine: String, Codable, Sendable {
        case sqlite, postgresql
    }

    /// One uploaded file: where it lives under `blobs/` and its name among the backup's objects.
    struct File: Codable, Sendable, Equatable {
        let storagePath: String
        let object: String
        let sha256: String
        let byteCount: Int
    }

    var format = currentFormat
    let createdAt: Date
    let engine: Engine
    /// The PostgreSQL schema the dump holds, when not the default one.
    let postgresSchema: String?
    let database: EncryptedFile.Digest
    /// Rows per table of the snapshot (SQLite; a PostgreSQL dump is checked by `pg_restore`).
    let tableRows: [String: Int]
    let files: [File]

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func read(from snapshot: URL, key: BackupKey) throws -> BackupManifest {
        let data = try EncryptedFile.open(snapshot.appendingPathComponent(fileName), key: key)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let manifest = try decoder.decode(BackupManifest.self, from: data)
        guard manifest.format <= currentFormat else {
            throw CommandFailure("The backup \(snapshot.lastPathComponent) was made by a newer Momentary (format \(manifest.format)); restore it with that version.")
        }
        return manifest
    }

    func write(to snapshot: URL, key: BackupKey) throws {
        try EncryptedFile.seal(try Self.encoder().encode(self), to: snapshot.appendingPathComponent(Self.fileName), key: key)
    }
}
