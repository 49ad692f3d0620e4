import Foundation

/// Writes a file through a temporary sibling that is flushed and renamed into place, so readers
/// (and a restart after a crash) see the whole file or none of it.
enum AtomicOutput {
    static func write<T>(to destination: URL, _ body: (FileHandle) throws -> T) throws -> T {
        let directory = destination.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: directory.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            let result: T
            do {
                result = try body(handle)
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            if FileManager.default.fileExists(atPath: destination.path) {
                try FileManager.default.removeItem(at: destination)
            }
            try FileManager.default.moveItem(at: temporary, to: destination)
            return result
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
