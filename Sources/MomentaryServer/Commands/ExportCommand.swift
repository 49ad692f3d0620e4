import ArgumentParser
import Foundation
import NIOCore

/// `momentary export`: a study's data in any `ExportFormat` (`momentary export --format …`, the
/// default subcommand), one participant's passive stream (`export streams`), or a participant's
/// responses as Reporter app files (`export reporter`). A group without options of its own,
/// because ArgumentParser requires a parent's options even when a subcommand runs.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a study's data, one participant's passive sensor stream, or a participant's responses as Reporter app files.",
        subcommands: [ExportStudyCommand.self, ExportStreamsCommand.self, ExportReporterCommand.self],
        defaultSubcommand: ExportStudyCommand.self)
}

/// `momentary export [study] --format …`: a study's data in any `ExportFormat`, to a file or
/// standard output, with progress on standard error.
struct ExportStudyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "study",
        abstract: "Export a study's data: long, wide, beeps, codebook, context, json, xlsx or archive.",
        discussion: """
            long (or csv): one row per answer. wide: one survey's responses, one row each, one column \
            per question that was in the versions answered (multiple choice as 0/1 columns per \
            option); --survey picks the survey, needed when the study has more than one beep survey. beeps: one row per beep with what became of \
            it. codebook: every question and option of every survey version. context (or \
            context-csv): one row per response with its sensed context. json: an array of responses \
            with answers and context. xlsx: a workbook with the sheets Responses, a Wide sheet per \
            survey, Context, Environment, Beeps and Codebook. archive: a ZIP of all of these (a wide \
            file per survey) plus photos. Every time \
            is given in UTC (_utc) and in the participant's zone (_local, zone in timezone). Dates \
            filter whole UTC days, both inclusive (beeps by when they were scheduled).
            """)

    @ArgumentParser.Option(help: "The study's slug.") var study: String
    @ArgumentParser.Option(name: .customLong("format"), help: "long, wide, beeps, codebook, context, json, xlsx or archive.")
    var formatName: String
    @ArgumentParser.Option(help: ArgumentHelp("Only responses submitted on or after this UTC day.", valueName: "YYYY-MM-DD"))
    var from: String?
    @ArgumentParser.Option(help: ArgumentHelp("Only responses submitted on or before this UTC day.", valueName: "YYYY-MM-DD"))
    var to: String?
    @ArgumentParser.Option(name: .customLong("participant"), help: ArgumentHelp(
        "Only this participant's responses (repeat for several).", valueName: "id"))
    var participants: [String] = []
    @ArgumentParser.Option(help: ArgumentHelp(
        "Only this survey's responses (its name or id); the wide table is always one survey's.", valueName: "name"))
    var survey: String?
    @ArgumentParser.Option(help: ArgumentHelp("Write to this file; - or nothing for standard output (not for xlsx or archive).", valueName: "file"))
    var output: String?
    @ArgumentParser.Flag(help: "Start CSV files with a UTF-8 byte-order mark, for Excel on Windows.")
    var bom = false
    @OptionGroup var data: DataOptions

    func run() async throws {
        // Read here rather than by ArgumentParser, whose refusal lists the formats over many lines.
        guard let format = ExportFormat(name: formatName) else {
            throw CommandFailure.usage("Unknown format “\(formatName)”; choose one of \(ExportFormat.names).")
        }
        let filter: ExportFilter
        do {
            filter = try ExportFilter.parse(from: from, to: to, participants: participants)
        } catch {
            throw CommandFailure.usage(error.message)
        }
        let path = output == "-" ? nil : output
        if path == nil && !format.isText {
            throw CommandFailure.usage("The \(format.rawValue) format cannot go to standard output; name a file with "
                + "--output \(format.fileName(study: study)).")
        }
        let dataDirectory = try data.loadConfiguration().dataDirectory
        try await withDatabase(data) { db in
            _ = try await StudyLookup.bySlug(study, on: db)
            let export: StudyExport
            do {
                export = try await StudyExport.prepare(
                    ExportRequest(study: study, format: format, filter: filter, byteOrderMark: bom, survey: survey), on: db, photosIn: dataDirectory)
            } catch let error as ExportRequestError {
                throw CommandFailure.usage(error.message)
            }
            let destination = try ExportDestination(path: path)
            let summary: ExportSummary
            do {
                let reporter = ProgressReporter()
                summary = try await export.write(to: { chunk in try destination.write(chunk) }, progress: reporter.report)
                try destination.finish()
            } catch {
                destination.abandon()
                throw error
            }
            let counted = switch format {
            case .beeps: "\(summary.rows) beeps"
            case .messages: "\(summary.rows) messages"
            case .codebook: "\(summary.rows) codebook rows"
            case .long, .xlsx, .archive: "\(summary.rows) answer rows from \(summary.responses) responses"
            case .wide, .context, .json, .ics: "\(summary.responses) responses"
            case .kmz: "\(summary.rows) located responses of \(summary.responses)"
            }
            CommandOutput.error("Exported \(counted)" + (path.map { " to \($0)" } ?? "") + ".")
        }
    }
}


/// Prints how far a long export has got, at most every two seconds, to standard error.
private final class ProgressReporter: Sendable {
    private let throttle = ThrottledReport()

    func report(_ summary: ExportSummary) {
        throttle.ifDue { seconds in
            CommandOutput.error("… \(summary.rows) rows from \(summary.responses) responses (\(seconds) s)")
        }
    }
}

/// A file being written (removed again if the export fails, so no truncated file is left looking
/// complete), or standard output.
private final class ExportDestination: Sendable {
    private let handle: FileHandle
    private let path: String?

    init(path: String?) throws {
        self.path = path
        guard let path else {
            handle = FileHandle.standardOutput
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path)
        else {
            throw CommandFailure.usage("Cannot write to \(path): check that its folder exists and is writable.")
        }
        self.handle = handle
    }

    func write(_ chunk: ByteBuffer) throws {
        try handle.write(contentsOf: chunk.readableBytesView)
    }

    func finish() throws {
        if path != nil { try handle.close() }
    }

    func abandon() {
        guard let path else { return }
        try? handle.close()
        try? FileManager.default.removeItem(atPath: path)
    }
}
