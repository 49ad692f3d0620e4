import Crypto
import Foundation
import MomentaryCore

/// A file encrypted with AES-GCM in 1 MiB chunks, so a database of any size is encrypted and
/// checked without holding it in memory.
///
/// Layout: the 8-byte `magic`, then for each chunk a 4-byte big-endian length and the sealed box
/// (nonce, ciphertext, tag). Each chunk authenticates its position and whether it is the last, so
/// chunks cannot be reordered, dropped or the file cut short without decryption failing.
enum EncryptedFile {
    static let magic = Data("MOMBAK1\n".utf8)
    static let chunkSize = 1 << 20

    /// What was read or written: the plaintext's SHA-256 (lower-case hex) and length.
    struct Digest: Codable, Equatable, Sendable {
        let sha256: String
        let byteCount: Int
    }

    struct Damaged: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path) is damaged or was made with another key: \(reason)." }
    }

    /// Encrypts `source` into `destination`, which appears complete (flushed, renamed into place) or not at all.
    @discardableResult
    static func encrypt(_ source: URL, to destination: URL, key: BackupKey) throws -> Digest {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        return try AtomicFile.write(to: destination, creatingFolder: true) { output in
            try output.write(contentsOf: magic)
            var hash = SHA256()
            var byteCount = 0
            var index: UInt64 = 0
            var chunk = try input.read(upToCount: chunkSize) ?? Data()
            while true {
                let next = chunk.count == chunkSize ? (try input.read(upToCount: chunkSize) ?? Data()) : Data()
                let isLast = next.isEmpty
                hash.update(data: chunk)
                byteCount += chunk.count
                let sealed = try AES.GCM.seal(chunk, using: key.key, authenticating: header(index: index, isLast: isLast))
                guard let combined = sealed.combined else { throw CocoaError(.fileWriteUnknown) }
                try output.write(contentsOf: bigEndian(UInt32(combined.count)) + combined)
                if isLast { break }
                chunk = next
                index += 1
            }
            return Digest(sha256: BlobStore.hex(hash.finalize()), byteCount: byteCount)
        }
    }

    /// Decrypts `source`, writing the plaintext to `destination` (atomically) or, without one,
    /// only checking it. Throws `Damaged` for a wrong key or any change to the file.
    @discardableResult
    static func decrypt(_ source: URL, to destination: URL? = nil, key: BackupKey) throws -> Digest {
        guard let destination else {
            return try decrypt(source, key: key) { _ in }
        }
        return try AtomicFile.write(to: destination, creatingFolder: true) { output in
            try decrypt(source, key: key) { try output.write(contentsOf: $0) }
        }
    }

    private static func decrypt(_ source: URL, key: BackupKey, _ consume: (Data) throws -> Void) throws -> Digest {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        func damaged(_ reason: String) -> Damaged { Damaged(path: source.path, reason: reason) }
        guard try input.read(upToCount: magic.count) == magic else { throw damaged("it is not a Momentary backup file") }
        var hash = SHA256()
        var byteCount = 0
        var index: UInt64 = 0
        var lengthBytes = try input.read(upToCount: 4) ?? Data()
        while true {
            guard lengthBytes.count == 4 else { throw damaged("it ends before its last part") }
            let length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
            guard length <= chunkSize + 64, let sealed = try input.read(upToCount: length), sealed.count == length else {
                throw damaged("part \(index + 1) is cut short")
            }
            lengthBytes = try input.read(upToCount: 4) ?? Data()
            let isLast = lengthBytes.isEmpty
            let plain: Data
            do {
                plain = try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key.key,
                                         authenticating: header(index: index, isLast: isLast))
            } catch {
                throw damaged(isLast ? "its last part does not decrypt (cut short, changed, or another key)" : "part \(index + 1) does not decrypt")
            }
            hash.update(data: plain)
            byteCount += plain.count
            try consume(plain)
            if isLast { break }
            index += 1
        }
        return Digest(sha256: BlobStore.hex(hash.finalize()), byteCount: byteCount)
    }

    /// Encrypts a small value (the manifest) in one go.
    static func seal(_ data: Data, to destination: URL, key: BackupKey) throws {
        let plain = destination.deletingLastPathComponent().appendingPathComponent(".plain-\(UUID().uuidString)")
        try data.write(to: plain)
        defer { try? FileManager.default.removeItem(at: plain) }
        try encrypt(plain, to: destination, key: key)
    }

    /// Decrypts a small value (the manifest) in one go.
    static func open(_ source: URL, key: BackupKey) throws -> Data {
        var data = Data()
        _ = try decrypt(source, key: key) { data.append($0) }
        return data
    }

    private static func header(index: UInt64, isLast: Bool) -> Data {
        bigEndian(index) + Data([isLast ? 1 : 0])
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }
}
