import ArgumentParser
import Foundation
import MomentaryCore

/// `momentary export streams`: one participant's passive stream as one CSV in Beiwe's format.
struct ExportStreamsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streams",
        abstract: "Export one participant's passive stream as one CSV in its Beiwe format.",
        discussion: """
            Rows of every batch the participant uploaded, in time order, each row once even when \
            batches overlap. Dates filter whole UTC days, both inclusive, by the rows' own times \
            (survey_answers rows have none and go by when their batch arrived). Streams: \
            \(PassiveStream.allCases.map(\.rawValue).joined(separator: ", ")).
            """)

    @ArgumentParser.Option(help: "The study's slug.") var study: String
    @ArgumentParser.Option(help: ArgumentHelp(ParticipantLookup.help)) var participant: String
    @ArgumentParser.Option(help: "The stream's name, such as accelerometer or gps.") var stream: String
    @ArgumentParser.Option(help: ArgumentHelp("Only rows on or after this UTC day.", valueName: "YYYY-MM-DD")) var from: String?
    @ArgumentParser.Option(help: ArgumentHelp("Only rows on or before this UTC day.", valueName: "YYYY-MM-DD")) var to: String?
    @ArgumentParser.Option(help: ArgumentHelp("Write to this file; - or nothing for standard output.", valueName: "file")) var output: String?
    @OptionGroup var data: DataOptions

    func validate() throws {
        try ParticipantLookup.validate(participant)
    }

    func run() async throws {
        guard let passive = PassiveStream(rawValue: stream) else {
            throw CommandFailure.usage("Unknown stream “\(stream)”; choose one of \(PassiveStream.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let filter: ExportFilter
        do {
            filter = try ExportFilter.parse(from: from, to: to, participants: [])
        } catch {
            throw CommandFailure.usage(error.message)
        }
        let blobs = BlobStore(dataDirectory: try data.loadConfiguration().dataDirectory)
        try await withDatabase(data) { db in
            let study = try await StudyLookup.bySlug(study, on: db)
            let participantID = try await ParticipantLookup.find(participant, inStudy: study, on: db).requireID()
            let result = try await StreamExport.csv(
                participantID: participantID, stream: passive, from: filter.earliest, end: filter.end, blobs: blobs, on: db)
            let path = output == "-" ? nil : output
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
            CommandOutput.error("Exported \(result.rows) \(passive.rawValue) rows from \(result.batches) batches" + (path.map { " to \($0)" } ?? "") + ".")
        }
    }
}
