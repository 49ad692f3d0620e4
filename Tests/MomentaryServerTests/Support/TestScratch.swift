import Foundation

/// Folders for tests that leave files behind them (a configuration's data directory, a command's
/// output), all inside one folder of this test process's, which is removed when the process
/// exits: without it, every run of the suite left dozens of folders in /tmp.
enum TestScratch {
    /// Named by process, so two suites running at once (SQLite and PostgreSQL) keep apart.
    private static let rootPath = NSTemporaryDirectory() + "momentary-tests-\(getpid())"

    private static let root: URL = {
        let url = URL(fileURLWithPath: rootPath, isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestScratch.rootPath) }
        return url
    }()

    /// A new empty folder whose name starts with `prefix`.
    static func folder(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path for a file whose name starts with `prefix` and ends with `suffix`, not yet made.
    static func file(_ prefix: String, suffix: String = "") -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
    }
}
