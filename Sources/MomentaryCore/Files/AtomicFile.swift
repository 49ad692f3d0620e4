import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file writes that a crash cannot tear: the bytes go to a hidden temporary file in the same
/// directory, are flushed to disk, and then renamed over the target in one step. A reader (and a
/// restart after a crash) sees the old file or the new one, never a mix.
public enum AtomicFile {
    /// Temporary files start with this; whoever owns the folder sweeps away any a crash left.
    public static let temporaryPrefix = ".tmp-"

    public static func write(_ data: Data, to url: URL, permissions: Int = 0o600) throws {
        try write(to: url, permissions: permissions) { try $0.write(contentsOf: data) }
    }

    /// Writes what `body` writes to the handle; with `creatingFolder`, makes the folder first.
    public static func write<T>(
        to url: URL, permissions: Int = 0o600, creatingFolder: Bool = false, _ body: (FileHandle) throws -> T
    ) throws -> T {
        let directory = url.deletingLastPathComponent()
        if creatingFolder { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        let temporary = directory.appendingPathComponent(temporaryPrefix + UUID().uuidString)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil,
                                             attributes: [.posixPermissions: permissions]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        let result: T
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            result = try body(handle)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try move(temporary, over: url)
        synchronizeDirectory(directory)
        return result
    }

    /// Makes whatever `body` makes (a file or a whole folder) at a hidden scratch path beside
    /// `destination`, then renames it over `destination` in one step; on failure nothing is left.
    public static func place<T>(at destination: URL, _ body: (URL) async throws -> T) async throws -> T {
        let scratch = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try await body(scratch)
        try move(scratch, over: destination)
        return result
    }

    /// rename(2) replaces an existing file in one step, which `FileManager.moveItem` does not.
    private static func move(_ source: URL, over destination: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: source)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// Makes the rename itself durable; best effort, as not every file system allows it.
    private static func synchronizeDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = close(descriptor)
    }

    /// Removes a file; a file that is already gone is not an error.
    public static func remove(_ url: URL) throws {
        do {
            try FileManager.default.removeItem(at: url)
        } catch let error as CocoaError where error.code == .fileNoSuchFile {
            return
        }
    }
}
