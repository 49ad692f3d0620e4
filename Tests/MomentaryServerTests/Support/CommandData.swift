import Foundation
@testable import MomentaryServer
import Vapor

/// A data directory for commands run in-process with `--data`: a migrated SQLite file in a scratch
/// folder, holding what `prepare` stores (given the app and the directory, where blobs go).
struct CommandData<Prepared> {
    let directory: URL
    let configuration: Configuration
    let prepared: Prepared

    /// `--data DIR`, to append to a command's arguments.
    var arguments: [String] { ["--data", directory.path] }

    static func make(_ prefix: String, prepare: (Application, URL) async throws -> Prepared) async throws -> Self {
        let directory = try TestScratch.folder(prefix)
        let configuration = Configuration(
            dataDirectory: directory, database: .sqlite(path: directory.appendingPathComponent(Configuration.sqliteFileName).path),
            environmentName: "testing")
        let prepared = try await AppFactory.withApp(configuration) { app in
            app.logger.logLevel = .warning
            try await app.migrateAtomically()
            return try await prepare(app, directory)
        }
        return Self(directory: directory, configuration: configuration, prepared: prepared)
    }
}
