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

    @ArgumentParser.Option(help: "Serve /metrics (and /healthz) on this port only, without a token.")
    var metricsPort: Int?

    @ArgumentParser.Option(help: "Address the metrics port listens on.")
    var metricsHostname = "127.0.0.1"

    @ArgumentParser.Flag(help: "Create the demo study and a researcher account on first start.")
    var demo = false

    @OptionGroup var data: DataOptions

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, not \(port).")
        }
        if let metricsPort {
            guard (0...65535).contains(metricsPort) else {
                throw ValidationError("--metrics-port must be between 0 and 65535, not \(metricsPort).")
            }
            guard metricsPort != port || metricsPort == 0 else {
                throw ValidationError("--metrics-port must differ from --port (\(port)).")
            }
        }
    }

    func run() async throws {
        var configuration = try data.loadConfiguration()
        configuration.metricsPort = metricsPort
        try await AppFactory.withApp(configuration, arguments: ["momentary", "serve"]) { app in
            try await Self.prepareDatabase(app, configuration)
            if demo {
                try await DemoSeeder.seedIfNeeded(on: app.db) { CommandOutput.line($0) }
            }
            // Signalling runs in the server; `momentary signal` workers may run beside it. On the
            // embedded SQLite file one server owns the data, so its worker keeps one id across
            // restarts: a server restarted after a crash sends again at once what it left mid-send.
            var options = SignalDispatcherOptions()
            if case .sqlite = configuration.database {
                options.workerID = "serve@\(ProcessInfo.processInfo.hostName):\(configuration.dataDirectory.standardizedFileURL.path)"
            }
            try app.signalling.install(configuration: configuration, options: options)
            app.lifecycle.use(SignallingLifecycle())
            app.lifecycle.use(MailSenderLifecycle())
            app.lifecycle.use(PeriodicJob(component: "webhooks", every: WebhookSender.interval) { db, _, logger in
                await WebhookSender.deliverDue(on: db, logger: logger)
            })
            let mail = app.mail
            app.lifecycle.use(PeriodicJob(component: "alerts", every: AlertChecker.interval) { db, now, logger in
                await AlertChecker.run(on: db, now: now, mail: mail, logger: logger)
            })
            app.lifecycle.use(PeriodicJob(component: "public-statistics", every: .seconds(configuration.publicStatisticsSeconds)) {
                await PublicStatisticsService.refreshAll(on: $0, now: $1, logger: $2)
            })
            app.lifecycle.use(StudyTallies.compactionJob())
            app.lifecycle.use(BlobSweep.job(BlobStore(dataDirectory: configuration.dataDirectory)))
            let environment = configuration.environmentSettings
            if let provider = environment.makeProvider(demo: demo, client: app.http.client.shared) {
                app.lifecycle.use(EnvironmentEnrichment.job(provider: provider, seconds: environment.intervalSeconds))
            }

            // Vapor listens on a private socket; the network reaches it only through the door.
            var settings = FrontDoor.Settings(configuration)
            settings.maxConnections = OpenFileLimit.connectionsAllowed(wanted: settings.maxConnections)
            if settings.maxConnections < configuration.maxConnections {
                app.logger.warning("The open-file limit allows \(settings.maxConnections) connections, not MOMENTARY_MAX_CONNECTIONS=\(configuration.maxConnections); raise it with ulimit -n.")
            }
            let door = try FrontDoor(settings: settings, metrics: app.metrics)
            door.install(in: app)
            do {
                try await app.startup()
            } catch {
                await door.close()
                throw CommandFailure("Could not start the HTTP server: \(StartupErrorDescription.sentence(for: error))")
            }
            let boundPort: Int
            var boundMetricsPort: Int?
            do {
                boundPort = try await door.open(hostname: hostname, port: port, listener: .main, on: app.eventLoopGroup)
                if let metricsPort {
                    boundMetricsPort = try await door.open(
                        hostname: metricsHostname, port: metricsPort, listener: .metrics, on: app.eventLoopGroup)
                }
            } catch {
                await door.close()
                throw CommandFailure("Could not listen on \(hostname):\(port): \(StartupErrorDescription.sentence(for: error))")
            }
            CommandOutput.line("Momentary is listening on http://\(hostname):\(boundPort) (data in \(configuration.dataDirectory.path))")
            if let boundMetricsPort {
                CommandOutput.line("Metrics are served on http://\(metricsHostname):\(boundMetricsPort)/metrics")
            }
            try await app.running?.onStop.get()
            await door.close()
        }
    }

    static func prepareDatabase(_ app: Application, _ configuration: Configuration) async throws {
        if configuration.database.isEmbedded {
            try await app.migrateAtomically()
            return
        }
        let pending = try await app.withMigrationLock { try await AppFactory.pendingMigrations(app) }
        guard pending.isEmpty else {
            throw CommandFailure(
                "The PostgreSQL database lacks \(pending.count) migration(s); run `momentary migrate` first.")
        }
    }
}
