import Foundation
import MomentaryCore
import MomentaryServer
import SQLKit
import Vapor

/// The real server the HTTP benchmarks (`ingest`, `status`) measure: configured for production, on
/// a fresh SQLite file in a temporary folder (or in a schema of its own on PostgreSQL), migrated,
/// the demo study seeded, listening on a loopback port; `/metrics` answers to `metricsToken`.
/// The caller removes `directory` when done.
struct BenchServer {
    let app: Application
    let base: URL
    let configuration: Configuration
    let directory: URL
    let metricsToken: String

    var sql: any SQLDatabase { app.db.sql }

    static func start(_ name: String, postgresURL: String?) async throws -> BenchServer {
        let directory = try ScratchFolder.make(name)
        let metricsToken = UUID().uuidString
        let configuration = Configuration(
            dataDirectory: directory,
            database: postgresURL.map { .postgres(url: $0) }
                ?? .sqlite(path: directory.appendingPathComponent(Configuration.sqliteFileName).path),
            environmentName: "production",
            postgresSchema: postgresURL == nil ? nil : "bench_\(name)_\(UInt32.random(in: 0...UInt32.max))",
            metricsToken: metricsToken)

        let app = try await Application.make(.production)
        app.logger.logLevel = .error
        try await configure(app, configuration)
        try await app.migrateAtomically()
        try await app.seedDemoStudy()
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = app.http.server.shared.localAddress?.port ?? 0
        return BenchServer(
            app: app, base: URL(string: "http://127.0.0.1:\(port)")!, configuration: configuration, directory: directory,
            metricsToken: metricsToken)
    }

    /// Stops serving and closes the application; its database stays, to be reopened and counted.
    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }
}
