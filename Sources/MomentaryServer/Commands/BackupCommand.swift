import ArgumentParser
import Foundation

/// `momentary backup --to DIR`, `momentary backup verify DIR`, `momentary backup list DIR`.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up the database and uploaded files, encrypted, while the server runs.",
        discussion: """
            Each backup is a folder under DIR/snapshots; uploaded files are stored once under DIR/objects, so \
            a file an earlier backup holds is not copied again. Everything is encrypted with AES-GCM using the \
            key in the file named by \(BackupKey.variable) (\(BackupKey.howToMake)); keep that key apart from \
            the backups. PostgreSQL databases are dumped with pg_dump.
            """,
        subcommands: [Verify.self, List.self])

    @ArgumentParser.Option(name: .customLong("to"), help: ArgumentHelp("The backup folder (created if needed).", valueName: "dir"))
    var folder: String?

    @OptionGroup var data: DataOptions

    func run() async throws {
        guard let folder else {
            throw CommandFailure.usage("Name the backup folder with --to DIR (check a backup with: momentary backup verify DIR).")
        }
        let configuration = try data.loadConfiguration()
        let key = try BackupKey.load()
        let started = Date()
        let summary = try await BackupService.backup(
            configuration, key: key, to: URL(fileURLWithPath: folder), now: started, progress: { CommandOutput.line($0) })
        for warning in summary.warnings { CommandOutput.error("warning: \(warning)") }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        CommandOutput.line("Backed up to \(folder)/snapshots/\(summary.snapshot) in \(seconds) s: the database "
            + "(\(ByteText.describe(summary.manifest.database.byteCount))) and \(summary.manifest.files.count) uploaded files "
            + "(\(summary.filesCopied) copied, \(summary.filesAlreadyBackedUp) already in an earlier backup).")
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Restore a backup into a temporary folder and compare it with what was backed up.")

        @ArgumentParser.Argument(help: ArgumentHelp("The backup folder.", valueName: "dir"))
        var folder: String

        @ArgumentParser.Option(help: "Which backup (a name under snapshots/); default the newest.")
        var snapshot: String?

        func run() async throws {
            let key = try BackupKey.load()
            let report = try await BackupService.verify(
                URL(fileURLWithPath: folder), snapshot: snapshot, key: key, progress: { CommandOutput.line($0) })
            guard report.problems.isEmpty else {
                for problem in report.problems { CommandOutput.error(problem) }
                throw CommandFailure("Backup \(report.snapshot) has \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") (listed above).")
            }
            let manifest = report.manifest
            let rows = manifest.tableRows.isEmpty ? "" : ", \(manifest.tableRows.values.reduce(0, +)) rows in \(manifest.tableRows.count) tables"
                + (manifest.tableRows["responses"].map { " (\($0) responses)" } ?? "")
            let structure = report.structureChecked ? "" : " (pg_restore is not installed here, so the dump's structure was not read)"
            CommandOutput.line("Backup \(report.snapshot) is whole: the database matches its record\(rows)\(structure); "
                + "all \(manifest.files.count) uploaded files match.")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the backups in a folder, oldest first.")

        @ArgumentParser.Argument(help: ArgumentHelp("The backup folder.", valueName: "dir"))
        var folder: String

        func run() async throws {
            let key = try BackupKey.load()
            let repository = BackupRepository(root: URL(fileURLWithPath: folder))
            let names = repository.snapshotNames()
            guard !names.isEmpty else { throw CommandFailure("\(folder) holds no backup.") }
            CommandOutput.line("name,created_utc,database,database_bytes,uploaded_files")
            for name in names {
                let manifest = try BackupManifest.read(from: try repository.snapshot(named: name), key: key)
                CommandOutput.line([name, manifest.createdAt.formatted(.iso8601), manifest.engine.rawValue,
                                    String(manifest.database.byteCount), String(manifest.files.count)].joined(separator: ","))
            }
        }
    }
}

/// `momentary restore --from DIR [--snapshot NAME] [--force]`.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into an empty data directory (and database). Stop the server first.")

    @ArgumentParser.Option(name: .customLong("from"), help: ArgumentHelp("The backup folder.", valueName: "dir"))
    var folder: String

    @ArgumentParser.Option(help: "Which backup (a name under snapshots/); default the newest.")
    var snapshot: String?

    @ArgumentParser.Flag(help: "Replace the data already in the data directory (and database).")
    var force = false

    @OptionGroup var data: DataOptions

    func run() async throws {
        let configuration = try data.loadConfiguration()
        let key = try BackupKey.load()
        let started = Date()
        let summary = try await BackupService.restore(
            from: URL(fileURLWithPath: folder), snapshot: snapshot, into: configuration, key: key, force: force,
            progress: { CommandOutput.line($0) })
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        CommandOutput.line("Restored backup \(summary.snapshot) (made \(summary.manifest.createdAt.formatted(.iso8601))) in \(seconds) s: "
            + "the database and \(summary.manifest.files.count) uploaded files. Start the server with: momentary serve")
    }
}
