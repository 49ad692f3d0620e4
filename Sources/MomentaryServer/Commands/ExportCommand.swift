import ArgumentParser
import Foundation
import NIOCore
import Synchronization

/// `momentary export`: a study's responses as CSV, context CSV, JSON or an Excel workbook, to a
/// file or standard output, with progress on standard error.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a study's responses (CSV, context CSV, JSON or XLSX).",
        discussion: """
            csv: one row per answer. context-csv: one row per response with its sensed context. \
            json: an array of responses with answers and context. xlsx: a workbook with the sheets \
            Responses, Context and Environment. Dates are whole UTC days, both inclusive.
            """)

    @ArgumentParser.Option(help: "The study's slug.") var study: String
    @ArgumentParser.Option(help: "csv, context-csv, json or xlsx.") var format: ExportFormat
    @ArgumentParser.Option(help: ArgumentHelp("Only responses submitted on or after this UTC day.", valueName: "YYYY-MM-DD"))
    var from: String?
    @ArgumentParser.Option(help: ArgumentHelp("Only responses submitted on or before this UTC day.", valueName: "YYYY-MM-DD"))
    var to: String?
    @ArgumentParser.Option(name: .customLong("participant"), help: ArgumentHelp(
        "Only this participant's responses (repeat for several).", valueName: "id"))
    var participants: [String] = []
    @ArgumentParser.Option(help: ArgumentHelp("Write to this file; - or nothing for standard output (not for xlsx).", valueName: "file"))
    var output: String?
    @OptionGroup var data: DataOptions

    func run() async throws {
        let filter: ExportFilter
        do {
            filter = try ExportFilter.parse(from: from, to: to, participants: participants)
        } catch {
            throw CommandFailure.usage(error.message)
        }
        let path = output == "-" ? nil : output
        if path == nil && format == .xlsx {
            throw CommandFailure.usage("An XLSX workbook cannot go to standard output; name a file with --output FILE.xlsx.")
        }
        try await withDatabase(data) { db in
            _ = try await StudyLookup.bySlug(study, on: db)
            let export: StudyExport
            do {
                export = try await StudyExport.prepare(ExportRequest(study: study, format: format, filter: filter), on: db)
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
            let rowKind = format == .csv || format == .xlsx ? "answer rows" : "responses"
            CommandOutput.error("Exported \(summary.rows) \(rowKind) from \(summary.responses) responses"
                + (path.map { " to \($0)" } ?? "") + ".")
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}

/// Prints how far a long export has got, at most every two seconds, to standard error.
private final class ProgressReporter: Sendable {
    private let started = Date()
    private let lastReport = Mutex(Date())

    func report(_ summary: ExportSummary) {
        let now = Date()
        let due = lastReport.withLock { last in
            guard now.timeIntervalSince(last) >= 2 else { return false }
            last = now
            return true
        }
        guard due else { return }
        let seconds = Int(now.timeIntervalSince(started))
        CommandOutput.error("… \(summary.rows) rows from \(summary.responses) responses (\(seconds) s)")
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
