import ArgumentParser
import Foundation

/// `momentary import`: data from other apps into a study.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Bring data from other apps into a study.", subcommands: [Reporter.self, BeiweData.self])

    /// `momentary import reporter --study S DIR`: a Reporter user's history as a participant.
    struct Reporter: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a folder of Reporter app files (YYYY-MM-DD-reporter-export.json) as one participant of a study.",
            discussion: """
                The files' questions become a survey of the study (one question per prompt, its kind \
                from the answers), and each report a volunteered response with its context. Every \
                file is checked first: if any cannot be read, each problem is listed by file and \
                field and nothing is stored. Importing the same files again adds nothing; files \
                with more reports add just those.
                """)

        @ArgumentParser.Option(help: "The study's slug.") var study: String
        @ArgumentParser.Argument(help: ArgumentHelp("The folder of Reporter files.", valueName: "folder")) var folder: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let study = try await StudyLookup.bySlug(study, on: db)
                let summary: ReporterImporter.Summary
                do {
                    summary = try await ReporterImporter.importFolder(URL(fileURLWithPath: folder), into: study, on: db)
                } catch let refusal as ReporterImporter.Refusal {
                    throw CommandFailure("Nothing was imported:\n" + refusal.problems.map { "  \($0)" }.joined(separator: "\n"))
                }
                let who = summary.createdParticipant ? "new participant \(summary.participantLabel)" : "participant \(summary.participantLabel)"
                CommandOutput.line(
                    "Imported \(summary.added) reports from \(summary.files) files as \(who)"
                        + (summary.alreadyThere > 0 ? "; \(summary.alreadyThere) were already there." : "."))
            }
        }
    }
}
