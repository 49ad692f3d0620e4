import ArgumentParser
import Foundation

/// `momentary export reporter`: one participant's responses as Reporter's daily files.
struct ExportReporterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reporter",
        abstract: "Write one participant's responses as Reporter app files, one YYYY-MM-DD-reporter-export.json per local day.",
        discussion: """
            Each response becomes a snapshot with its context (battery, connection, steps, sound, \
            location, weather, report impetus) and its answers in Reporter's shapes. Days are the \
            participant's local days; times carry the participant's UTC offset. Photos are copied \
            into photos/ beside the files and listed in each report's photoSet. Files of the same \
            name in the folder are replaced.
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
            CommandOutput.error(
                "Wrote \(summary.files) files with \(summary.snapshots) reports"
                    + (summary.photos > 0 ? " and \(summary.photos) photos" : "") + " to \(output).")
        }
    }
}
