import Foundation

/// Folders for work in progress (an export's parts, a backup being verified, a private socket):
/// made new and empty, readable only by this user, and removed by whoever made them when the work
/// ends.
public enum ScratchFolder {
    /// A new folder `momentary-<purpose>-<8 hex digits>` in the system's temporary folder. The name
    /// is short so that a Unix socket's path inside it fits the 107 bytes a socket address holds.
    public static func make(_ purpose: String) throws -> URL {
        try make(in: URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)) { "momentary-\(purpose)-\($0)" }
    }

    /// A new hidden folder beside `destination` (its parent made if missing): on the same file
    /// system, so what is built in it reaches `destination` by a rename, not a copy.
    public static func make(beside destination: URL) throws -> URL {
        let parent = destination.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        return try make(in: parent) { ".\(destination.lastPathComponent).\($0).part" }
    }

    private static func make(in parent: URL, named name: (String) -> String) throws -> URL {
        while true {
            let folder = parent.appendingPathComponent(name(UUID().uuidString.prefix(8).lowercased()), isDirectory: true)
            // Never shares a folder: a name taken since this check makes `createDirectory` throw.
            if FileManager.default.fileExists(atPath: folder.path) { continue }
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            return folder
        }
    }
}
