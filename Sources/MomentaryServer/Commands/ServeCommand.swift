import ArgumentParser
import Fluent
import Vapor

/// `momentary serve`: the whole server on one port. On the embedded SQLite default it migrates by
/// itself; on PostgreSQL it refuses to start until `momentary migrate` has run.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the server (participant API, researcher website, signalling).")

    @ArgumentParser.Option(help: "Address to listen on.")
    var hostname = "127.0.0.1"

    @ArgumentParser.Option(help: "Port to listen on (0 picks a free port).")
    var port = 8080

    @ArgumentParser.Flag(help: "Create the demo study and a researcher account on first start.")
    var demo = false

    @OptionGroup var data: DataOptions

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, not \(port).")
        }
    }

    func run() async throws {
        let configuration = try data.loadConfiguration()
        let vaporArguments = ["momentary", "serve", "--hostname", hostname, "--port", String(port)]
        try await AppFactory.withApp(configuration, arguments: vaporArguments) { app in
            try await Self.prepareDatabase(app, configuration)
            if demo {
                try await DemoSeeder.seedIfNeeded(on: app.db) { CommandOutput.line($0) }
            }
            // Signalling runs in the server; `momentary signal` workers may run beside it.
            try app.signalling.install(configuration: configuration)
            app.lifecycle.use(SignallingLifecycle())
            app.lifecycle.use(PublicStatisticsLifecycle(seconds: configuration.publicStatisticsSeconds))
            do {
                try await app.startup()
            } catch {
                throw CommandFailure("Could not listen on \(hostname):\(port): \(StartupErrorDescription.sentence(for: error))")
            }
            let boundPort = app.http.server.shared.localAddress?.port ?? port
            CommandOutput.line("Momentary is listening on http://\(hostname):\(boundPort) (data in \(configuration.dataDirectory.path))")
            try await app.running?.onStop.get()
        }
    }

    static func prepareDatabase(_ app: Application, _ configuration: Configuration) async throws {
        if configuration.database.isEmbedded {
            try await app.migrateAtomically()
            return
        }
        let pending = try await AppFactory.pendingMigrations(app)
        guard pending.isEmpty else {
            throw CommandFailure(
                "The PostgreSQL database lacks \(pending.count) migration(s); run `momentary migrate` first.")
        }
    }
}
