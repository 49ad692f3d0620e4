import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file writes that a crash cannot tear: the bytes go to a hidden temporary file in the same
/// directory, are flushed to disk, and then renamed over the target in one step. A reader sees
/// the old file or the new one, never a mix.
enum AtomicFile {
    /// Temporary files start with this; they are never items and are swept away on load.
    static let temporaryPrefix = ".tmp-"

    static func write(_ data: Data, to url: URL, permissions: Int = 0o600) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(temporaryPrefix + UUID().uuidString)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil,
                                             attributes: [.posixPermissions: permissions]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        synchronizeDirectory(directory)
    }

    /// Makes the rename itself durable; best effort, as not every file system allows it.
    private static func synchronizeDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    /// Removes a file; a file that is already gone is not an error.
    static func remove(_ url: URL) throws {
        do {
            try FileManager.default.removeItem(at: url)
        } catch let error as CocoaError where error.code == .fileNoSuchFile {
            return
        }
    }
}
