import Crypto
import Foundation

/// Files on disk under `<data dir>/blobs`: photos and passive-data batches. Written to a temporary
/// file, flushed to disk and renamed into place, so an acknowledged upload survives a crash and a
/// half-written file is never visible under its final name.
struct BlobStore: Sendable {
    let root: URL

    init(dataDirectory: URL) {
        self.root = dataDirectory.appendingPathComponent("blobs", isDirectory: true)
    }

    struct Stored: Sendable {
        /// Path relative to the store's root, as recorded in the `blobs` table.
        let relativePath: String
        let byteCount: Int
        let sha256: String
    }

    func write(_ data: Data, relativePath: String) throws -> Stored {
        let destination = root.appendingPathComponent(relativePath)
        let directory = destination.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
            if FileManager.default.fileExists(atPath: destination.path) {
                try FileManager.default.removeItem(at: destination)
            }
            try FileManager.default.moveItem(at: temporary, to: destination)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        return Stored(relativePath: relativePath, byteCount: data.count, sha256: Self.sha256(data))
    }

    func read(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }

    func remove(_ relativePath: String) {
        try? FileManager.default.removeItem(at: root.appendingPathComponent(relativePath))
    }

    /// Lower-case hex SHA-256 of `data` (file checksums, and participant secrets' stored hashes).
    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
