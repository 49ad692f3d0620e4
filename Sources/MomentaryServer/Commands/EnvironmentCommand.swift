import ArgumentParser
import Fluent
import Foundation
import Vapor

/// `momentary environment backfill --study S`: fills the weather, air quality and pollen of a
/// study's past responses now, with the provider `serve` would use, printing progress as it goes.
struct EnvironmentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "environment", abstract: "Weather, air quality and pollen for responses with a location.",
        subcommands: [Backfill.self])

    struct Backfill: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backfill", abstract: "Fill the environment of a study's responses given so far.")

        @ArgumentParser.Option(help: "The study (its slug).")
        var study: String

        @OptionGroup var data: DataOptions

        func run() async throws {
            let configuration = try data.loadConfiguration()
            try await AppFactory.withApp(configuration) { app in
                try await ServeCommand.prepareDatabase(app, configuration)
                guard let provider = configuration.environmentSettings.makeProvider(demo: false, client: app.http.client.shared) else {
                    throw CommandFailure("No environment provider is configured; set MOMENTARY_ENVIRONMENT_PROVIDER to open-meteo (or fixture for made-up values).")
                }
                let found = try await StudyLookup.bySlug(study, on: app.db)
                var logger = app.logger
                logger[metadataKey: "component"] = "environment"
                let result = try await EnvironmentEnrichment.backfill(
                    study: try found.requireID(), on: app.db, provider: provider, logger: logger
                ) { CommandOutput.line($0.line) }
                if result.failed > 0 {
                    throw CommandFailure("\(result.failed) place-hour(s) could not be fetched; the server retries them with backoff, or run the backfill again later.")
                }
            }
        }
    }
}
