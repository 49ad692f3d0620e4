import ArgumentParser
import Foundation

/// `momentary import`: data from other apps into a study.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Bring data from other apps into a study.", subcommands: [Reporter.self, BeiweData.self, ParticipantDatesFile.self])

    /// `momentary import reporter --study S PATH`: a Reporter user's history as a participant.
    struct Reporter: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import Reporter app files (daily YYYY-MM-DD-reporter-export.json files and/or the full reporter-export.json) as one participant of a study.",
            discussion: """
                PATH is a folder of daily files, a folder with the full export, or one file of \
                either kind. The files' questions become a survey of the study (one question per \
                prompt and answer shape, its kind from the answers), and each report a volunteered \
                response with its context, in the time zone it was lived in (from its UTC offset \
                and location). What a report says that Momentary has no column for is kept as the \
                file had it, so `export reporter` gives the files back. Every file is checked \
                first: if any cannot be read, each problem is listed by file and field and nothing \
                is stored. Importing the same files again adds nothing; files with more reports \
                add just those.
                """)

        @ArgumentParser.Option(help: "The study's slug.") var study: String
        @ArgumentParser.Argument(help: ArgumentHelp("A folder of Reporter files, or one Reporter file.", valueName: "path")) var path: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withDatabase(data) { db in
                let study = try await StudyLookup.bySlug(study, on: db)
                let summary: ReporterImporter.Summary
                do {
                    summary = try await ReporterImporter.importFiles(at: URL(fileURLWithPath: path), into: study, on: db)
                } catch let refusal as ReporterImporter.Refusal {
                    throw CommandFailure("Nothing was imported:\n" + refusal.problems.map { "  \($0)" }.joined(separator: "\n"))
                }
                let who = summary.createdParticipant ? "new participant \(summary.participantLabel)" : "participant \(summary.participantLabel)"
                let files = summary.files == 1 ? "1 file" : "\(summary.files) files"
                CommandOutput.line(
                    "Imported \(summary.added) reports from \(files) as \(who)"
                        + (summary.alreadyThere > 0 ? "; \(summary.alreadyThere) were already there." : "."))
                if summary.keptOnly > 0 {
                    CommandOutput.line(
                        "\(summary.keptOnly) answers name a place with no position, which a Momentary location answer needs: "
                            + "they are stored as skipped and kept as the files had them.")
                }
            }
        }
    }
}
