import ArgumentParser
import Fluent
import Foundation
import Vapor

/// `momentary statistics refresh [--study SLUG]`: recomputes public statistics now, as `serve`
/// does every `MOMENTARY_PUBLIC_STATISTICS_SECONDS` (for a cron job beside separate workers, or to
/// see a change at once).
struct StatisticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statistics", abstract: "Public statistics of studies that show them.",
        subcommands: [Refresh.self])

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refresh", abstract: "Recompute the public statistics of every study that shows them, or of one.")

        @ArgumentParser.Option(help: "Only this study (its slug).")
        var study: String?

        @OptionGroup var data: DataOptions

        func run() async throws {
            let configuration = try data.loadConfiguration()
            try await AppFactory.withApp(configuration) { app in
                try await ServeCommand.prepareDatabase(app, configuration)
                guard let slug = study else {
                    let count = await PublicStatisticsService.refreshAll(on: app.db, now: Date(), logger: app.logger)
                    CommandOutput.line(count == 0 ? "No study shows public statistics." : "Refreshed the public statistics of \(count) stud\(count == 1 ? "y" : "ies").")
                    return
                }
                guard let found = try await Study.query(on: app.db).filter(\.$slug == slug).first() else {
                    throw CommandFailure.usage("There is no study “\(slug)”.")
                }
                guard found.publicStatisticsEnabled else {
                    throw CommandFailure("Study “\(slug)” does not show public statistics; switch them on in its settings first.")
                }
                try await PublicStatisticsService.refresh(found, on: app.db, now: Date())
                CommandOutput.line("Refreshed the public statistics of “\(slug)”: \(SiteRoute.publicStatistics.path(slug))")
            }
        }
    }
}
