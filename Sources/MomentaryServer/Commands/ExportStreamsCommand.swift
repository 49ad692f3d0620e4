import ArgumentParser
import Fluent
import Foundation
import MomentaryCore

/// `momentary export streams`: a participant's passive stream as one CSV in Beiwe's format, or
/// several participants' or streams' CSVs in one ZIP.
struct ExportStreamsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streams",
        abstract: "Export a participant's passive stream as one CSV in its Beiwe format, or several in a ZIP.",
        discussion: """
            Rows of every batch the participant uploaded, in time order, each row once even when \
            batches overlap. Dates filter whole UTC days, both inclusive, by the rows' own times \
            (survey_answers rows have none and go by when their batch arrived). Streams: \
            \(PassiveStream.allCases.map(\.rawValue).joined(separator: ", ")). With several \
            --participant or --stream, or without --participant (everyone who uploaded any of \
            the streams), each participant's stream is one entry of a ZIP, LABEL/STREAM.csv. \
            With --beiwe-download, a folder laid out as a Beiwe data download instead: \
            LABEL/STREAM/YYYY-MM-DD HH_00_00+00_00.csv per UTC hour with Beiwe's UTC time column, \
            survey streams under their Beiwe survey id, survey_timings with its survey id column.
            """)

    @ArgumentParser.Option(help: "The study's slug.") var study: String
    @ArgumentParser.Option(name: .customLong("participant"), help: ArgumentHelp(
        ParticipantLookup.help + " Repeat for several; leave out for everyone who uploaded the streams.", valueName: "id"))
    var participants: [String] = []
    @ArgumentParser.Option(name: .customLong("stream"), help: ArgumentHelp(
        "The stream's name, such as accelerometer or gps. Repeat for several.", valueName: "name"))
    var streams: [String]
    @ArgumentParser.Option(help: ArgumentHelp("Only rows on or after this UTC day.", valueName: "YYYY-MM-DD")) var from: String?
    @ArgumentParser.Option(help: ArgumentHelp("Only rows on or before this UTC day.", valueName: "YYYY-MM-DD")) var to: String?
    @ArgumentParser.Option(help: ArgumentHelp(
        "Write to this file; - or nothing for standard output. Several participants or streams go into a ZIP, which needs a file ending in .zip.",
        valueName: "file"))
    var output: String?
    @ArgumentParser.Flag(help: "Write a folder (--output) laid out and formatted as a Beiwe data download.")
    var beiweDownload = false
    @OptionGroup var data: DataOptions

    func validate() throws {
        for participant in participants { try ParticipantLookup.validate(participant) }
    }

    func run() async throws {
        let filter: ExportFilter
        do {
            filter = try ExportFilter.parse(from: from, to: to, participants: [])
        } catch {
            throw CommandFailure.usage(error.message)
        }
        let path = output == "-" ? nil : output
        let blobs = BlobStore(dataDirectory: try data.loadConfiguration().dataDirectory)
        try await withDatabase(data) { db in
            let study = try await StudyLookup.bySlug(study, on: db)
            let selection: StreamExportSelection
            do {
                selection = try await .resolve(participants: participants, streams: streams, in: study, on: db)
            } catch let problem as StreamExportSelection.Problem {
                throw CommandFailure.usage(problem.message)
            }
            if beiweDownload {
                try await Self.writeDownload(selection, from: filter.earliest, end: filter.end, to: path, blobs: blobs, on: db)
                return
            }
            // Decided on the participants and streams found, so one named twice (by label and by id) is one.
            if selection.isArchive, !(path?.lowercased().hasSuffix(".zip") ?? false) {
                throw CommandFailure.usage("Several participants or streams (or everyone, without --participant) are written as a ZIP: name a file with --output streams.zip.")
            }
            if selection.isArchive, let path {
                let summary: StreamArchive.Summary
                do {
                    summary = try await StreamArchive.write(
                        selection, from: filter.earliest, end: filter.end, to: URL(fileURLWithPath: path), blobs: blobs, on: db)
                } catch where error is CocoaError || error is POSIXError {
                    throw CommandFailure.usage("Cannot write to \(path): \(error.localizedDescription)")
                }
                CommandOutput.error("Exported \(summary.rows) rows from \(summary.batches) batches in \(summary.entries) files to \(path).")
                return
            }
            let (participantID, stream) = (try selection.participants[0].requireID(), selection.streams[0])
            let summary: StreamExport.Summary
            if let path {
                summary = try await Self.writeFile(at: URL(fileURLWithPath: path)) { scratch in
                    try await StreamExport.write(
                        participantID: participantID, stream: stream, from: filter.earliest, end: filter.end, to: scratch, blobs: blobs, on: db)
                }
            } else {
                // Through CommandOutput, which ends each piece with the line break cut off here.
                summary = try await StreamExport.write(
                    participantID: participantID, stream: stream, from: filter.earliest, end: filter.end, blobs: blobs, on: db
                ) { piece in
                    CommandOutput.line(String(decoding: piece.dropLast(), as: UTF8.self))
                }
            }
            CommandOutput.error("Exported \(summary.rows) \(stream.rawValue) rows from \(summary.batches) batches" + (path.map { " to \($0)" } ?? "") + ".")
        }
    }

    /// The Beiwe download folder, made beside `path` and moved into place whole.
    private static func writeDownload(
        _ selection: StreamExportSelection, from: Date?, end: Date?, to path: String?, blobs: BlobStore, on db: any Database
    ) async throws {
        guard let path, !path.lowercased().hasSuffix(".zip") else {
            throw CommandFailure.usage("--beiwe-download writes a folder: name a new or empty one with --output.")
        }
        let destination = URL(fileURLWithPath: path)
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: destination.path), !existing.isEmpty {
            throw CommandFailure.usage("\(path) is not empty; name a new or empty folder for the Beiwe download.")
        }
        let summary = try await writeFile(at: destination) { scratch in
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
            return try await BeiweDownloadExport.write(selection, from: from, end: end, to: scratch, blobs: blobs, on: db)
        }
        CommandOutput.error("Exported \(summary.rows) rows from \(summary.batches) batches in \(summary.files) files to \(path).")
    }

    /// Writes through a scratch file beside `destination`, moved into place only when complete.
    private static func writeFile<T>(at destination: URL, _ body: (URL) async throws -> T) async throws -> T {
        do {
            return try await AtomicFile.place(at: destination, body)
        } catch where error is CocoaError || error is POSIXError {
            throw CommandFailure.usage("Cannot write to \(destination.path): check that its folder exists and is writable (\(error.localizedDescription)).")
        }
    }
}
