import Foundation

/// A backup folder: `snapshots/<UTC time>/` (the database and its manifest) for each backup, and
/// `objects/`, the uploaded files of every backup stored once by keyed content hash, so a photo
/// already backed up is not copied again. A backup is written under a hidden name and renamed
/// when complete, so an interrupted one is never mistaken for a backup.
struct BackupRepository {
    let root: URL

    var snapshots: URL { root.appendingPathComponent("snapshots", isDirectory: true) }

    func object(_ name: String) -> URL {
        root.appendingPathComponent("objects", isDirectory: true)
            .appendingPathComponent(String(name.prefix(2)), isDirectory: true)
            .appendingPathComponent(name)
    }

    /// Names of complete backups, oldest first.
    func snapshotNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: snapshots.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The named backup, or the newest; one sentence when there is none.
    func snapshot(named name: String?) throws -> URL {
        let names = snapshotNames()
        guard let chosen = name ?? names.last else {
            throw CommandFailure("\(root.path) holds no backup (make one with: momentary backup --to \(root.path)).")
        }
        guard names.contains(chosen) else {
            throw CommandFailure("\(root.path) holds no backup named “\(chosen)”; it holds: \(names.joined(separator: ", ")).")
        }
        return snapshots.appendingPathComponent(chosen, isDirectory: true)
    }

    /// A hidden folder to write a new backup into, after clearing partial ones a day old or more
    /// (left by a backup that was killed; a younger one may belong to a backup still running).
    func startSnapshot(now: Date) throws -> URL {
        let files = FileManager.default
        try files.createDirectory(at: snapshots, withIntermediateDirectories: true)
        for name in (try? files.contentsOfDirectory(atPath: snapshots.path)) ?? [] where name.hasPrefix(".partial-") {
            let folder = snapshots.appendingPathComponent(name)
            let modified = (try? files.attributesOfItem(atPath: folder.path)[.modificationDate] as? Date) ?? now
            if now.timeIntervalSince(modified) > 86_400 { try? files.removeItem(at: folder) }
        }
        let partial = snapshots.appendingPathComponent(".partial-\(UUID().uuidString)", isDirectory: true)
        try files.createDirectory(at: partial, withIntermediateDirectories: true)
        return partial
    }

    /// Gives the finished backup its name (the UTC time it began, made unique) and returns it.
    func finish(_ partial: URL, startedAt: Date) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = formatter.string(from: startedAt)
        var name = base
        var suffix = 2
        while FileManager.default.fileExists(atPath: snapshots.appendingPathComponent(name).path) {
            name = "\(base)-\(suffix)"
            suffix += 1
        }
        try FileManager.default.moveItem(at: partial, to: snapshots.appendingPathComponent(name, isDirectory: true))
        return name
    }
}
