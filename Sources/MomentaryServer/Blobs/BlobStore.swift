import Crypto
import Foundation
import MomentaryCore

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
        try AtomicFile.write(to: root.appendingPathComponent(relativePath), creatingFolder: true) { try $0.write(contentsOf: data) }
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
        hex(SHA256.hash(data: data))
    }

    /// Lower-case hex of any bytes (digests and authentication codes).
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
