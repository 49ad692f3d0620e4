import ArgumentParser
import Foundation
import MomentaryCore

/// `momentary export reporter`: one participant's responses as Reporter's daily files.
struct ExportReporterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reporter",
        abstract: "Write one participant's responses as Reporter app files: one YYYY-MM-DD-reporter-export.json per day and the full reporter-export.json.",
        discussion: """
            Each response becomes a snapshot with its context (battery, connection, steps, sound, \
            location, weather, report impetus) and its answers in Reporter's shapes, its time at \
            the UTC offset of the zone it was given in, in the file of its local day there. A \
            response imported from Reporter is written as its file had it, in the day file it came \
            from. Photos are copied into photos/ beside the files and listed in each report's \
            photoSet. Files of the same name in the folder are replaced.
            """)

    @ArgumentParser.Option(help: "The study's slug.") var study: String
    @ArgumentParser.Option(help: ArgumentHelp(ParticipantLookup.help)) var participant: String
    @ArgumentParser.Option(help: ArgumentHelp("The folder to write the files into (created if missing).", valueName: "folder"))
    var output: String
    @OptionGroup var data: DataOptions

    func validate() throws {
        try ParticipantLookup.validate(participant)
    }

    func run() async throws {
        let blobs = BlobStore(dataDirectory: try data.loadConfiguration().dataDirectory)
        try await withDatabase(data) { db in
            let study = try await StudyLookup.bySlug(study, on: db)
            let found = try await ParticipantLookup.find(participant, inStudy: study, on: db)
            let summary: ReporterExporter.Summary
            do {
                summary = try await ReporterExporter.export(participant: found, to: URL(fileURLWithPath: output), blobs: blobs, on: db)
            } catch let error as CocoaError {
                throw CommandFailure("Cannot write to \(output): \(error.localizedDescription)")
            }
            let files = "\(summary.files) day files and \(ReporterDay.fullExportFileName)"
            let photos = summary.photos > 0 ? " and \(summary.photos) photos" : ""
            CommandOutput.error("Wrote \(files) with \(summary.snapshots) reports\(photos) to \(output).")
        }
    }
}
