import ArgumentParser
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
            --participant or --stream, each participant's stream is one entry of a ZIP, \
            LABEL/STREAM.csv.
            """)

    @ArgumentParser.Option(help: "The study's slug.") var study: String
    @ArgumentParser.Option(name: .customLong("participant"), help: ArgumentHelp(
        ParticipantLookup.help + " Repeat for several.", valueName: "id"))
    var participants: [String]
    @ArgumentParser.Option(name: .customLong("stream"), help: ArgumentHelp(
        "The stream's name, such as accelerometer or gps. Repeat for several.", valueName: "name"))
    var streams: [String]
    @ArgumentParser.Option(help: ArgumentHelp("Only rows on or after this UTC day.", valueName: "YYYY-MM-DD")) var from: String?
    @ArgumentParser.Option(help: ArgumentHelp("Only rows on or before this UTC day.", valueName: "YYYY-MM-DD")) var to: String?
    @ArgumentParser.Option(help: ArgumentHelp(
        "Write to this file; - or nothing for standard output. Several participants or streams go into a ZIP, which needs a file ending in .zip.",
        valueName: "file"))
    var output: String?
    @OptionGroup var data: DataOptions

    func validate() throws {
        for participant in participants { try ParticipantLookup.validate(participant) }
    }

    func run() async throws {
        let passive = try streams.map { name in
            guard let stream = PassiveStream(rawValue: name) else {
                throw CommandFailure.usage("Unknown stream “\(name)”; choose one of \(PassiveStream.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return stream
        }
        let filter: ExportFilter
        do {
            filter = try ExportFilter.parse(from: from, to: to, participants: [])
        } catch {
            throw CommandFailure.usage(error.message)
        }
        let path = output == "-" ? nil : output
        let several = participants.count * passive.count > 1
        if several, !(path?.lowercased().hasSuffix(".zip") ?? false) {
            throw CommandFailure.usage("Several participants or streams are written as a ZIP: name a file with --output streams.zip.")
        }
        let blobs = BlobStore(dataDirectory: try data.loadConfiguration().dataDirectory)
        try await withDatabase(data) { db in
            let study = try await StudyLookup.bySlug(study, on: db)
            var found: [Participant] = []
            for participant in participants {
                let one = try await ParticipantLookup.find(participant, inStudy: study, on: db)
                if !found.contains(where: { $0.id == one.id }) { found.append(one) }
            }
            if several, let path {
                let summary: StreamArchive.Summary
                do {
                    summary = try await StreamArchive.write(
                        participants: found, streams: passive, from: filter.earliest, end: filter.end,
                        to: URL(fileURLWithPath: path), blobs: blobs, on: db)
                } catch let error as CocoaError {
                    throw CommandFailure.usage("Cannot write to \(path): \(error.localizedDescription)")
                }
                CommandOutput.error("Exported \(summary.rows) rows from \(summary.batches) batches in \(summary.entries) files to \(path).")
                return
            }
            let result = try await StreamExport.csv(
                participantID: try found[0].requireID(), stream: passive[0], from: filter.earliest, end: filter.end, blobs: blobs, on: db)
            let stream = passive[0]
            if let path {
                do {
                    try result.csv.write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw CommandFailure.usage("Cannot write to \(path): check that its folder exists and is writable.")
                }
            } else {
                // Through CommandOutput, which ends what it prints with the CSV's last line break.
                CommandOutput.line(String(decoding: result.csv.dropLast(), as: UTF8.self))
            }
            CommandOutput.error("Exported \(result.rows) \(stream.rawValue) rows from \(result.batches) batches" + (path.map { " to \($0)" } ?? "") + ".")
        }
    }
}
