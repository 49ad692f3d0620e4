import Fluent
import Vapor

/// Builds a configured application for a command, and shuts it down however the command ends.
enum AppFactory {
    static func withApp<T>(
        _ configuration: Configuration, arguments: [String] = ["momentary"],
        _ body: (Application) async throws -> T
    ) async throws -> T {
        let environment = Environment(name: configuration.environmentName, arguments: arguments)
        let app = try await Application.make(environment)
        do {
            try await configure(app, configuration)
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// Names of migrations not yet applied.
    static func pendingMigrations(_ app: Application) async throws -> [String] {
        try await app.migrator.setupIfNeeded().get()
        return try await app.migrator.previewPrepareBatch().get().map { $0.0.name }
    }
}
