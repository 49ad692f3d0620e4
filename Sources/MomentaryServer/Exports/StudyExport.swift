import Fluent
import Foundation

/// What a researcher asks to export: one study, in one format, optionally filtered.
public struct ExportRequest: Sendable, Hashable {
    /// The study's slug.
    public var study: String
    public var format: ExportFormat
    public var filter: ExportFilter
    /// Starts CSV files with a UTF-8 byte-order mark, which Excel on Windows needs to read accents
    /// and emoji correctly (pandas and R read either).
    public var byteOrderMark: Bool
    /// One survey's responses only (its name or id); the wide table is always one survey's, and
    /// without this is the study's only beep survey (`StudyExport+Surveys`).
    public var survey: String?

    public init(
        study: String, format: ExportFormat, filter: ExportFilter = ExportFilter(), byteOrderMark: Bool = false, survey: String? = nil
    ) {
        self.study = study
        self.format = format
        self.filter = filter
        self.byteOrderMark = byteOrderMark
        self.survey = survey
    }
}

/// How much an export has written so far (passed to progress reports) or in all (returned).
public struct ExportSummary: Sendable, Hashable {
    public var responses = 0
    /// Data rows of the main table: answers for the long CSV and workbooks, beeps for the beeps CSV,
    /// codebook rows for the codebook, responses otherwise.
    public var rows = 0
    public var bytes = 0

    public init() {}
}

/// Called after each page of responses with the running totals.
public typealias ExportProgress = @Sendable (ExportSummary) -> Void

/// An export of a study's responses, checked and ready to stream. Independent of HTTP: the website
/// hands it a response-body writer (see `StudyExport+HTTP`), the command line a file.
///
/// ```swift
/// let export = try await StudyExport.prepare(ExportRequest(study: "city-moods", format: .long), on: db)
/// let summary = try await export.write { chunk in try await writer.writeBuffer(chunk) }
/// ```
///
/// Responses are read a page at a time in submission order (see `ExportReader`), so memory stays
/// flat however large the study; a workbook is assembled in temporary files, then streamed.
public struct StudyExport: Sendable {
    public internal(set) var request: ExportRequest
    let studyID: UUID
    let db: any Database
    /// Where photos are read from for the archive; without it the archive has no photos.
    let blobs: BlobStore?
    /// Responses read per database round trip.
    var pageSize = ExportReader.defaultPageSize
    /// Data rows per worksheet before a continuation sheet starts; Excel's limit unless a test lowers it.
    var maxRowsPerSheet = XLSXSheetSeries.excelDataRowLimit
    /// Researchers read oldest first; a participant's own download lists the newest first.
    var order = ExportReader.Order.oldestFirst
    /// Whether rows carry the response's sequence number among its participant's responses
    /// (the personal download's `sequence` column, which its `after_sequence` filter refers to).
    var numbered = false
    /// The download's file name, when not the study's (`fileName`).
    var downloadName: String?
    /// The name inside a map or calendar, when not "<study>: responses".
    var title: String?
    /// The one survey exported (`ExportRequest.survey`, or the wide table's default), by name.
    var surveyName: String?
    /// The `arm` column, in a study with arms.
    var armColumn: ArmColumn?

    /// Checks the request against the database: the study must exist and every participant named
    /// in the filter must belong to it. Throws `ExportRequestError` with a message for the user.
    public static func prepare(_ request: ExportRequest, on db: any Database, photosIn dataDirectory: URL? = nil) async throws -> StudyExport {
        guard let study = try await Study.query(on: db).filter(\.$slug == request.study).first() else {
            throw ExportRequestError("There is no study “\(request.study)”.")
        }
        let studyID = try study.requireID()
        if !request.filter.participantIDs.isEmpty {
            let found = try await Participant.query(on: db)
                .filter(\.$study.$id == studyID).filter(\.$id ~~ request.filter.participantIDs).all(\.$id)
            if let stranger = request.filter.participantIDs.first(where: { !found.contains($0) }) {
                throw ExportRequestError(
                    "Participant \(stranger.uuidString.lowercased()) is not in study “\(request.study)”.")
            }
        }
        var request = request
        let surveyName = try await resolveSurvey(&request, studyID: studyID, on: db)
        var export = StudyExport(request: request, studyID: studyID, db: db, blobs: dataDirectory.map(BlobStore.init(dataDirectory:)))
        export.surveyName = surveyName
        export.armColumn = try await ArmColumn.load(of: study, on: db)
        return export
    }

    public var fileName: String {
        if let downloadName { return downloadName }
        if request.format == .wide, let surveyName { return ExportFormat.wideFileName(study: request.study, survey: surveyName) }
        return request.format.fileName(study: request.study)
    }

    /// Writes the whole export to `sink`, calling `progress` after each page.
    @discardableResult
    public func write(to sink: @escaping ExportSink, progress: ExportProgress? = nil) async throws -> ExportSummary {
        var reader = try await ExportReader(
            studyID: studyID, filter: request.filter, pageSize: pageSize, order: order, numbered: numbered, on: db)
        let output = ExportOutput(sink: sink)
        if request.byteOrderMark && request.format.isCSV { try await output.write("\u{FEFF}") }
        var summary = switch request.format {
        case .long: try await writeAnswersCSV(&reader, to: output, progress: progress)
        case .wide: try await writeWideCSV(&reader, to: output, progress: progress)
        case .beeps: try await writeBeepsCSV(to: output, progress: progress)
        case .messages: try await writeMessagesCSV(to: output, progress: progress)
        case .codebook: try await writeCodebookCSV(to: output)
        case .context: try await writeContextCSV(&reader, to: output, progress: progress)
        case .json: try await writeJSON(&reader, to: output, progress: progress)
        case .xlsx: try await writeWorkbook(&reader, to: output, progress: progress)
        case .kmz: try await writePlacemarks(&reader, to: output, progress: progress)
        case .ics: try await writeCalendar(&reader, to: output, progress: progress)
        case .archive: try await writeArchive(to: output, progress: progress)
        }
        try await output.flush()
        summary.bytes = output.bytesWritten
        return summary
    }
}
