import ArgumentParser
import Fluent
import Vapor

/// `momentary migrate`: applies pending migrations (the production path). `--revert` undoes them all,
/// for development; in production it also needs `--yes`.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply pending database migrations (or revert them all with --revert).")

    @ArgumentParser.Flag(help: "Revert every applied migration, deleting all data (development only).")
    var revert = false

    @ArgumentParser.Flag(help: "Confirm --revert in the production environment.")
    var yes = false

    @OptionGroup var data: DataOptions

    func run() async throws {
        let configuration = try data.loadConfiguration()
        if revert && configuration.environmentName == "production" && !yes {
            throw CommandFailure.usage("Reverting deletes every table; in production add --yes to confirm.")
        }
        try await AppFactory.withApp(configuration) { app in
            if revert {
                try await app.migrator.setupIfNeeded().get()
                let applied = try await app.migrator.previewRevertAllBatches().get().map { $0.0.name }
                try await app.autoRevert()
                CommandOutput.line(applied.isEmpty ? "Nothing to revert." : "Reverted \(applied.count) migration(s).")
            } else {
                try await app.withMigrationLock {
                    let pending = try await AppFactory.pendingMigrations(app)
                    for name in pending { CommandOutput.line("Applying \(name)") }
                    try await app.migrateAtomically()
                    CommandOutput.line(pending.isEmpty ? "The database is up to date." : "Applied \(pending.count) migration(s).")
                }
            }
        }
    }
}
