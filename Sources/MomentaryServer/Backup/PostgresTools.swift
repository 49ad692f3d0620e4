import Foundation

/// Runs PostgreSQL's own `pg_dump` and `pg_restore`, which know every detail of the server's
/// format. The password goes through the environment, never the command line others can see.
enum PostgresTools {
    static func dump(url: String, schema: String?, to file: URL) throws {
        var arguments = ["--format=custom", "--no-owner", "--no-privileges", "--file", file.path]
        if let schema { arguments += ["--schema", schema] }
        try run("pg_dump", arguments, url: url)
    }

    /// Restores a dump into an empty database (or schema) in one transaction.
    static func restore(_ file: URL, url: String, clean: Bool) throws {
        var arguments = ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error"]
        if clean { arguments += ["--clean", "--if-exists"] }
        try run("pg_restore", arguments + [file.path], url: url)
    }

    /// Whether `pg_restore` can read the dump's table of contents, when `pg_restore` is installed.
    static func checkReadable(_ file: URL) throws -> Bool {
        guard executable("pg_restore") != nil else { return false }
        try run("pg_restore", ["--list", file.path], url: nil)
        return true
    }

    private static func run(_ tool: String, _ arguments: [String], url: String?) throws {
        guard let path = executable(tool) else {
            throw CommandFailure("Backing up or restoring PostgreSQL needs \(tool), which is not installed here (Debian: apt-get install postgresql-client).")
        }
        var environment = ProcessInfo.processInfo.environment
        var fullArguments = arguments
        if let url {
            let (connection, password) = libpqURL(url)
            if let password { environment["PGPASSWORD"] = password }
            fullArguments = ["--dbname", connection] + arguments
        }
        let errors = Pipe()
        let child = try ChildProcess(path, fullArguments, environment: environment, standardError: errors.fileHandleForWriting.fileDescriptor)
        try errors.fileHandleForWriting.close()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        let status = child.waitForExit()
        guard status == 0 else {
            let text = String(decoding: message, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "exit status \(status)"
            throw CommandFailure("\(tool) failed: \(text)")
        }
    }

    /// The tool on PATH, else the newest in Debian's versioned folders.
    static func executable(_ tool: String) -> String? {
        let files = FileManager.default
        let onPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(tool)" }
        if let found = onPath.first(where: { files.isExecutableFile(atPath: $0) }) { return found }
        let versions = (try? files.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.sorted { $0.compare($1, options: .numeric) == .orderedDescending }
            .map { "/usr/lib/postgresql/\($0)/bin/\(tool)" }
            .first { files.isExecutableFile(atPath: $0) }
    }

    /// The URL libpq reads (scheme `postgresql`, no password) and the password taken out of it.
    static func libpqURL(_ url: String) -> (String, String?) {
        guard var components = URLComponents(string: url) else { return (url, nil) }
        let password = components.password
        components.password = nil
        components.scheme = "postgresql"
        return (components.string ?? url, password)
    }
}
