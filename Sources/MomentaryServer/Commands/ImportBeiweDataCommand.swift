import ArgumentParser
import Foundation

extension ImportCommand {
    /// `momentary import beiwe-data --study S DIR [--skip-bad]`: a Beiwe data download as its patients' streams.
    struct BeiweData: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "beiwe-data",
            abstract: "Import a Beiwe data download (a folder of <patient id>/<stream>/… files) as participants' passive streams.",
            discussion: """
                Each patient id becomes a participant labelled with it, who is never beeped, and \
                each file one of their stream batches, stored in the phone's format as if the \
                phone had uploaded it (the download's UTC time and survey id columns are taken \
                out, after checking them). Every file is checked first: problems are listed by \
                file, line and column and nothing is stored, unless --skip-bad, which stores the \
                good files and lists the bad ones. Streams Momentary has none of (calls, texts, \
                wifi, bluetooth, identifiers, app_log, ios_log, audio_recordings) are listed as \
                not imported. Importing the same folder again stores nothing new.
                """)

        @ArgumentParser.Option(help: "The study's slug.") var study: String
        @ArgumentParser.Flag(help: "Store the files that pass their check and list the others, instead of storing nothing.")
        var skipBad = false
        @ArgumentParser.Argument(help: ArgumentHelp("The download's folder, holding one folder per patient id.", valueName: "folder"))
        var folder: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let blobs = BlobStore(dataDirectory: try data.loadConfiguration().dataDirectory)
            try await withDatabase(data) { db in
                let study = try await StudyLookup.bySlug(study, on: db)
                let throttle = ThrottledReport()
                let summary: BeiweDataImport.Summary
                do {
                    summary = try await BeiweDataImport.run(
                        URL(fileURLWithPath: folder), into: study, skipBad: skipBad, blobs: blobs, on: db
                    ) { progress in
                        throttle.ifDue { seconds in
                            CommandOutput.error("… \(progress.step) \(progress.done) of \(progress.total) files (\(seconds) s)")
                        }
                    }
                } catch let refusal as BeiweDataImport.Refusal {
                    Self.list("Not imported", refusal.notImported)
                    let count = refusal.problems.count
                    let rest = refusal.goodFiles > 0 ? "; --skip-bad would import the \(refusal.goodFiles) good files" : ""
                    throw CommandFailure(
                        "Nothing was imported: \(count) problem\(count == 1 ? "" : "s")\(rest):\n" + refusal.problems.map { "  \($0)" }.joined(separator: "\n"))
                } catch let problem as BeiweDataImport.Problem {
                    throw CommandFailure("The import stopped: \(problem)")
                }
                Self.report(summary)
            }
        }

        private static func report(_ summary: BeiweDataImport.Summary) {
            var who: [String] = []
            if !summary.createdParticipants.isEmpty { who.append("new participants \(summary.createdParticipants.joined(separator: ", "))") }
            if !summary.existingParticipants.isEmpty { who.append("participants \(summary.existingParticipants.joined(separator: ", ")) already in the study") }
            CommandOutput.line(
                "Imported \(summary.storedFiles) files (\(summary.storedRows) rows)" + (who.isEmpty ? "" : " for " + who.joined(separator: " and "))
                    + (summary.alreadyThere > 0 ? "; \(summary.alreadyThere) files were already there." : "."))
            list("Not imported", summary.notImported)
            list("Skipped, with problems", summary.skipped.map(\.description))
        }

        private static func list(_ title: String, _ lines: [String]) {
            guard !lines.isEmpty else { return }
            CommandOutput.line("\(title):")
            for line in lines { CommandOutput.line("  \(line)") }
        }
    }
}
