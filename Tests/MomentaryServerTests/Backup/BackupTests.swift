import Crypto
import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import SQLKit
import Synchronization
import Testing

@Suite("Backups")
struct BackupTests {
    static let key = BackupKey(SymmetricKey(size: .bits256))

    @Test("an encrypted file reads back byte for byte at every chunk boundary; a change, a cut or another key is refused")
    func encryptedFileRoundTrip() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chunk = EncryptedFile.chunkSize
        for size in [0, 1, chunk - 1, chunk, chunk + 1, 2 * chunk + 5] {
            let plain = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            let source = folder.appendingPathComponent("plain-\(size)")
            let sealed = folder.appendingPathComponent("sealed-\(size)")
            let back = folder.appendingPathComponent("back-\(size)")
            try plain.write(to: source)
            let written = try EncryptedFile.encrypt(source, to: sealed, key: Self.key)
            #expect(written == .init(sha256: BlobStore.sha256(plain), byteCount: size))
            let read = try EncryptedFile.decrypt(sealed, to: back, key: Self.key)
            #expect(read == written)
            #expect(try Data(contentsOf: back) == plain, "size \(size)")
            // (A few bytes can turn up in ciphertext by chance; 16 or more cannot.)
            let sealedBytes = try Data(contentsOf: sealed)
            #expect(size < 16 || sealedBytes.range(of: plain.prefix(64)) == nil, "no plaintext in the file")
        }

        let sealed = folder.appendingPathComponent("sealed-\(2 * chunk + 5)")
        let original = try Data(contentsOf: sealed)
        var changed = original
        changed[changed.count / 2] ^= 0x01
        try changed.write(to: sealed)
        #expect(throws: EncryptedFile.Damaged.self) { try EncryptedFile.decrypt(sealed, key: Self.key) }
        // Cut after the first whole part: the first part says it is not the last.
        let firstPart = EncryptedFile.magic.count + 4 + chunk + 28
        try original.prefix(firstPart).write(to: sealed)
        #expect(throws: EncryptedFile.Damaged.self) { try EncryptedFile.decrypt(sealed, key: Self.key) }
        try original.write(to: sealed)
        #expect(throws: EncryptedFile.Damaged.self) { try EncryptedFile.decrypt(sealed, key: BackupKey(SymmetricKey(size: .bits256))) }
        #expect(try EncryptedFile.decrypt(sealed, key: Self.key).byteCount == 2 * chunk + 5)
    }

    @Test("the key file holds 32 bytes or 64 hex digits; anything else, or no variable, is one sentence saying how to make one")
    func keyFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw")
        let bytes = Data((0..<32).map { UInt8($0) })
        try bytes.write(to: raw)
        let hex = folder.appendingPathComponent("hex")
        try (BlobStore.hex(bytes) + "\n").write(to: hex, atomically: true, encoding: .utf8)
        let short = folder.appendingPathComponent("short")
        try Data("too short".utf8).write(to: short)

        let fromRaw = try BackupKey.load(environment: [BackupKey.variable: raw.path])
        let fromHex = try BackupKey.load(environment: [BackupKey.variable: hex.path])
        #expect(fromRaw.objectName(forSHA256: "abc") == fromHex.objectName(forSHA256: "abc"))
        #expect(fromRaw.objectName(forSHA256: "abc") != Self.key.objectName(forSHA256: "abc"), "object names depend on the key")
        #expect(fromRaw.objectName(forSHA256: "abc") != fromRaw.objectName(forSHA256: "abd"))

        for (environment, words) in [([String: String](), "set MOMENTARY_BACKUP_KEY_FILE"),
                                     ([BackupKey.variable: short.path], "32 random bytes or 64 hexadecimal digits"),
                                     ([BackupKey.variable: folder.appendingPathComponent("absent").path], "cannot be read")] {
            #expect {
                try BackupKey.load(environment: environment)
            } throws: { error in
                String(describing: error).contains(words)
            }
        }
    }

    @Test("a backup taken while participants upload restores every response and photo acknowledged before it began, exactly")
    func backupUnderLoadRestoresWhole() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            var registered: [MomentaryAPIClient] = []
            for seed in 1...3 {
                registered.append(try await APIFixture.register(on: server, APIFixture.registration(seed: UInt64(seed))).0)
            }
            let clients = registered
            let state = LoadState()
            let load = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, client) in clients.enumerated() {
                        group.addTask {
                            var count = 0
                            while !state.stop.load(ordering: .relaxed) {
                                count += 1
                                let key = "load-\(index)-\(count)"
                                let receipt = try await client.submitResponse(APIFixture.submission(key: key, seed: UInt64(count)))
                                if count % 2 == 0 {
                                    let jpeg = TestJPEG.make("\(key) photo")
                                    _ = try await client.uploadPhoto(jpeg, responseID: receipt.responseID, isPublic: false)
                                }
                                state.acknowledged.withLock { $0.append(key) }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            while state.acknowledged.withLock({ $0.count }) < 30 { try await Task.sleep(for: .milliseconds(20)) }
            let beforeBackup = Set(state.acknowledged.withLock { $0 })
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let summary = try await BackupService.backup(server.configuration, key: Self.key, to: folder, progress: { _ in })
            try await Task.sleep(for: .milliseconds(200))
            state.stop.store(true, ordering: .relaxed)
            try await load.value
            #expect(state.acknowledged.withLock { $0.count } > beforeBackup.count, "uploads went on during the backup")
            #expect(summary.warnings.isEmpty)

            let verified = try await BackupService.verify(folder, key: Self.key, progress: { _ in })
            #expect(verified.problems.isEmpty, "\(verified.problems)")

            // A second backup copies no file the first one holds.
            let second = try await BackupService.backup(server.configuration, key: Self.key, to: folder, now: Date().addingTimeInterval(1), progress: { _ in })
            #expect(second.filesAlreadyBackedUp >= summary.manifest.files.count)
            #expect(second.filesCopied == second.manifest.files.count - second.filesAlreadyBackedUp)
            #expect(BackupRepository(root: folder).snapshotNames().count == 2)

            let live = try await Snapshot.read(server.db.sql, blobs: BlobStore(dataDirectory: server.configuration.dataDirectory))
            var target = server.configuration
            target.dataDirectory = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: target.dataDirectory) }
            if case .sqlite = target.database {
                target.database = .sqlite(path: target.dataDirectory.appendingPathComponent(Configuration.sqliteFileName).path)
            }
            // PostgreSQL restores into the same schema, which already holds the live data: replace it.
            _ = try await BackupService.restore(
                from: folder, snapshot: summary.snapshot, into: target, key: Self.key, force: TestDatabase.isPostgres, progress: { _ in })
            let restored: Snapshot
            switch target.database {
            case .sqlite(let path):
                restored = try await SQLiteFile.with(path) { try await Snapshot.read($0, blobs: BlobStore(dataDirectory: target.dataDirectory)) }
            case .postgres:
                restored = try await Snapshot.read(server.db.sql, blobs: BlobStore(dataDirectory: target.dataDirectory))
            }

            #expect(beforeBackup.isSubset(of: Set(restored.responses.keys)), "every response acknowledged before the backup is restored")
            #expect(restored.responses.count < live.responses.count, "the backup's state, not what came after")
            for (key, response) in restored.responses {
                #expect(live.responses[key] == response, "response \(key) restored as it was")
            }
            #expect(restored.photos.count >= beforeBackup.filter { Int($0.split(separator: "-").last!)! % 2 == 0 }.count)
            for (path, bytes) in restored.photos {
                #expect(live.photos[path] == bytes, "photo \(path) restored byte for byte")
            }
        }
    }

    @Test("verify names a damaged uploaded file and a missing one; another key cannot open the backup")
    func verifyFindsDamage() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, _) = try await APIFixture.register(on: server)
            for index in 1...3 {
                let receipt = try await client.submitResponse(APIFixture.submission(key: "photo-\(index)"))
                _ = try await client.uploadPhoto(TestJPEG.make([UInt8(index)]), responseID: receipt.responseID, isPublic: false)
            }
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let summary = try await BackupService.backup(server.configuration, key: Self.key, to: folder, progress: { _ in })
            let files = summary.manifest.files
            #expect(files.count == 3)
            let repository = BackupRepository(root: folder)
            var damaged = try Data(contentsOf: repository.object(files[0].object))
            damaged[damaged.count - 3] ^= 0xFF
            try damaged.write(to: repository.object(files[0].object))
            try FileManager.default.removeItem(at: repository.object(files[1].object))

            let report = try await BackupService.verify(folder, key: Self.key, progress: { _ in })
            #expect(report.problems.count == 2)
            #expect(report.problems.contains { $0.contains(repository.object(files[0].object).path) && $0.contains("does not decrypt") })
            #expect(report.problems.contains { $0.contains("blobs/\(files[1].storagePath) is missing") })

            await #expect {
                try await BackupService.verify(folder, key: BackupKey(SymmetricKey(size: .bits256)), progress: { _ in })
            } throws: { error in
                String(describing: error).contains("cannot be opened with this key")
            }
        }
    }

    @Test("the commands: backup --to, backup verify, backup list, restore --from refusing a non-empty directory without --force")
    func commands() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("backup.key")
        try Data((0..<32).map { UInt8($0 * 7) }).write(to: keyFile)
        let data = folder.appendingPathComponent("data").path
        let restored = folder.appendingPathComponent("restored").path
        let backups = folder.appendingPathComponent("backups").path
        #expect(await runCommand(["migrate", "--data", data]).code == 0)
        let environment = BackupCommandEnvironment(keyFile: keyFile.path)

        let missingKey = await environment.without { await runCommand(["backup", "--to", backups, "--data", data]) }
        #expect(missingKey.code == 1 && missingKey.errors.contains("MOMENTARY_BACKUP_KEY_FILE"))
        let noFolder = await environment.with { await runCommand(["backup", "--data", data]) }
        #expect(noFolder.code == 2 && noFolder.errors.contains("--to DIR"))

        // Plain copies a killed backup left: an old one is removed, a fresh one (a backup running now) kept.
        let stale = URL(fileURLWithPath: data).appendingPathComponent(".backup-killed.tmp")
        let fresh = URL(fileURLWithPath: data).appendingPathComponent(".backup-running.tmp")
        try Data("plain".utf8).write(to: stale)
        try Data("plain".utf8).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7_200)], ofItemAtPath: stale.path)

        let backup = await environment.with { await runCommand(["backup", "--to", backups, "--data", data]) }
        #expect(backup.code == 0, "\(backup.errors)")
        #expect(!FileManager.default.fileExists(atPath: stale.path) && FileManager.default.fileExists(atPath: fresh.path))
        #expect(backup.output.contains("Backed up to \(backups)/snapshots/"))
        let verify = await environment.with { await runCommand(["backup", "verify", backups]) }
        #expect(verify.code == 0 && verify.output.contains("is whole"), "\(verify.errors)")
        let list = await environment.with { await runCommand(["backup", "list", backups]) }
        #expect(list.output.split(separator: "\n").count == 2 && list.output.contains(",sqlite,"))

        let restore = await environment.with { await runCommand(["restore", "--from", backups, "--data", restored]) }
        #expect(restore.code == 0, "\(restore.errors)")
        let studies = await runCommand(["studies", "list", "--data", restored])
        #expect(studies.code == 0 && studies.output.hasPrefix("slug,"), "the restored directory opens: \(studies.errors)")
        let again = await environment.with { await runCommand(["restore", "--from", backups, "--data", restored]) }
        #expect(again.code == 1 && again.errors.contains("already holds data") && again.errors.contains("--force"))
        let forced = await environment.with { await runCommand(["restore", "--from", backups, "--data", restored, "--force"]) }
        #expect(forced.code == 0, "\(forced.errors)")
        let unknown = await environment.with { await runCommand(["restore", "--from", backups, "--snapshot", "nope", "--data", restored, "--force"]) }
        #expect(unknown.code == 1 && unknown.errors.contains("no backup named “nope”"))
    }

    private func temporaryFolder() throws -> URL {
        try TestScratch.folder("backup-test")
    }
}

/// What the upload load shares between its tasks.
private final class LoadState: Sendable {
    let acknowledged = Mutex<[String]>([])
    let stop = Atomic<Bool>(false)
}

/// The rows and files a restore must bring back: responses by idempotency key with their
/// answers, and every uploaded file's bytes by path.
private struct Snapshot {
    struct Response: Equatable {
        let id: UUID
        let participantID: UUID
        let answers: [String]
    }

    let responses: [String: Response]
    let photos: [String: Data]

    static func read(_ sql: any SQLDatabase, blobs: BlobStore) async throws -> Snapshot {
        struct ResponseRow: Decodable { let id: UUID; let participant_id: UUID; let idempotency_key: String }
        struct AnswerRow: Decodable { let response_id: UUID; let question_id: String; let value: String? }
        struct BlobRow: Decodable { let storage_path: String }
        let responses = try await sql.raw("SELECT id, participant_id, idempotency_key FROM responses").all(decoding: ResponseRow.self)
        let answers = try await sql.raw("SELECT response_id, question_id, value FROM answers ORDER BY question_id")
            .all(decoding: AnswerRow.self)
        let answersByResponse = Dictionary(grouping: answers, by: \.response_id)
        let photos = try await sql.raw("SELECT storage_path FROM blobs").all(decoding: BlobRow.self)
        return Snapshot(
            responses: Dictionary(uniqueKeysWithValues: responses.map { row in
                (row.idempotency_key == "registration" ? "registration-\(row.participant_id)" : row.idempotency_key, Response(
                    id: row.id, participantID: row.participant_id,
                    answers: (answersByResponse[row.id] ?? []).map { "\($0.question_id)=\($0.value ?? "")" }))
            }),
            photos: Dictionary(uniqueKeysWithValues: try photos.map { ($0.storage_path, try blobs.read($0.storage_path)) }))
    }
}

/// Names the key file to a command run in-process, as `MOMENTARY_BACKUP_KEY_FILE` would, or
/// names none, without touching the process's environment.
private struct BackupCommandEnvironment {
    let keyFile: String

    func with<T>(_ body: () async -> T) async -> T {
        await BackupKey.$environmentOverride.withValue([BackupKey.variable: keyFile]) { await body() }
    }

    func without<T>(_ body: () async -> T) async -> T {
        await BackupKey.$environmentOverride.withValue([:]) { await body() }
    }
}
