import Fluent
import MomentaryCore
import Vapor

/// Builds the application from an explicit configuration, so the executable, tests and tools can
/// point it at any database. Does not migrate: callers decide (`serve` migrates
/// only the embedded default; production runs `momentary migrate`).
public func configure(
    _ app: Application, _ configuration: Configuration, timeSource: any TimeSource = SystemTimeSource()
) async throws {
    app.storage[ConfigurationKey.self] = configuration
    app.storage[TimeSourceKey.self] = timeSource
    app.metrics = ServerMetrics()

    // SQLite runs on this pool, and its busy handler retries a locked database without ever
    // giving up its thread. On a pool shared with other applications (every test app, by
    // default, shares the process-wide two-thread pool) two such waits could take every thread
    // while the connection holding the lock waits for one to commit: a livelock. A pool of the
    // application's own, larger than its connections, always has a thread for that commit.
    app.threadPool = NIOThreadPool(numberOfThreads: max(4, 2 * System.coreCount))

    try await DatabaseSetup.register(configuration, on: app)
    app.migrations.add(Migrations.all)
    var ingestLogger = app.logger
    ingestLogger[metadataKey: "component"] = "ingest"
    app.ingestResources = try IngestResources.make(for: configuration, on: app, logger: ingestLogger)
    app.lifecycle.use(GroupCommitWriterLifecycle())
    if let mail = configuration.mail {
        var mailLogger = app.logger
        mailLogger[metadataKey: "component"] = "mail"
        app.mail = try MailSender(settings: mail, database: app.backgroundDB, timeSource: timeSource, logger: mailLogger)
    }

    // A connection that goes quiet is closed, so idle or stalled clients cannot hold the server's
    // connections open for as long as they like.
    app.http.server.configuration.idleTimeout = .seconds(Int64(configuration.idleTimeoutSeconds))
    // Request bodies reach handlers as sent: stream batches inflate their gzip themselves, against
    // the batch limit and keeping the phone's compressed file (Vapor's default inflates any body,
    // refuses those compressing better than 10:1, and stalls on a truncated stream).
    app.http.server.configuration.requestDecompression = .disabled

    // Participant uploads are small JSON; photos have their own per-route limit.
    app.routes.defaultMaxBodySize = "256kb"
    app.middleware = Middlewares()
    app.middleware.use(SecurityHeadersMiddleware(isProduction: configuration.environmentName == "production"))
    app.middleware.use(RequestMetricsMiddleware(metrics: app.metrics))
    app.middleware.use(ErrorBodyMiddleware())
    app.middleware.use(PlanChangesMiddleware())

    // The key browsers subscribe with; a half-configured environment leaves it unset here and
    // stops `serve` when its push channels are installed, with the variable named.
    app.storage[WebPushPublicKeyKey.self] = (try? WebPushConfiguration.resolve(for: configuration))?.keyPair.publicKeyBase64URL

    try ResearcherWebsite.configure(app)
    try routes(app, configuration: configuration, timeSource: timeSource)
}

struct ConfigurationKey: StorageKey {
    typealias Value = Configuration
}

struct WebPushPublicKeyKey: StorageKey {
    typealias Value = String
}

extension Application {
    /// The configuration `configure(_:_:)` was given.
    public var momentaryConfiguration: Configuration {
        guard let configuration = storage[ConfigurationKey.self] else {
            fatalError("configure(_:_:) must run before the configuration is read")
        }
        return configuration
    }

    /// The VAPID public key (base64url) browsers subscribe with; nil when Web Push is off.
    var webPushPublicKey: String? { storage[WebPushPublicKeyKey.self] }
}
