import Fluent
import Foundation
import MomentaryCore
import SQLKit
import Vapor

/// A participant's own data, behind their secret link (`/my/{code}`): newest first, filtered by
/// local dates and by sequence number, as an HTML page (charts, answers, photos), CSV, JSON, KMZ or
/// iCalendar. CSV and JSON are the researchers' wide and JSON exports restricted to the
/// participant, with a `sequence` number added, as are the map and the calendar; each format streams
/// a page of responses at a time.
struct PersonalDownload {
    enum Format: String, CaseIterable {
        case html, csv, json, kmz, ics

        var contentType: String {
            switch self {
            case .html: "text/html; charset=utf-8"
            case .csv: "text/csv; charset=utf-8"
            case .json: "application/json; charset=utf-8"
            case .kmz: "application/vnd.google-earth.kmz"
            case .ics: "text/calendar; charset=utf-8"
            }
        }

        /// Files are named `responses.<format>` under the link.
        var fileName: String { "responses.\(rawValue)" }

        /// The researchers' export each file is (the wide table as the CSV); nil for the page.
        var exportFormat: ExportFormat? {
            switch self {
            case .html: nil
            case .csv: .wide
            case .json: .json
            case .kmz: .kmz
            case .ics: .ics
            }
        }
    }

    let participant: Participant
    let study: Study
    /// The link's code as shown (`bcdf-ghjk-…`), for links within the page.
    let code: String
    let filter: ExportFilter
    let db: any Database

    /// The query's `from`, `to` (dates in the participant's zone) and `after_sequence`, checked.
    static func filter(from: String?, to: String?, afterSequence: String?, participantID: UUID, zone: TimeZone) throws -> ExportFilter {
        var filter: ExportFilter
        do {
            filter = try ExportFilter.parse(from: from, to: to, participants: [])
        } catch {
            throw APIError.badRequest(error.message)
        }
        filter.participantIDs = [participantID]
        filter.zone = zone
        if let text = afterSequence?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let number = Int(text), number >= 0 else {
                throw APIError.badRequest("“after_sequence” must be a whole number of 0 or more, such as 120.")
            }
            filter.afterSequence = number
        }
        return filter
    }

    var zone: TimeZone { ParticipantTimeZone.resolve(participant.timeZone, studyDefault: study.defaultTimeZone) }

    func response(_ format: Format, logger: Logger) -> Response {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: format.contentType)
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        if format != .html {
            headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(study.slug)-\(format.fileName)\"")
        }
        let download = self
        return Response(status: .ok, headers: headers, body: Response.Body(managedAsyncStream: { writer in
            do {
                try await download.write(format, to: { chunk in try await writer.writeBuffer(chunk) })
            } catch {
                logger.error("Personal download failed: \(String(describing: error))")
                throw error
            }
        }))
    }

    func write(_ format: Format, to sink: @escaping ExportSink) async throws {
        guard let exported = format.exportFormat else {
            let output = ExportOutput(sink: sink)
            try await PersonalDownloadPage(download: self).write(to: output)
            try await output.flush()
            return
        }
        // The researchers' exports, restricted to this participant, newest first and numbered.
        var export = StudyExport(
            request: ExportRequest(study: study.slug, format: exported, filter: filter), studyID: try study.requireID(), db: db, blobs: nil)
        export.order = .newestFirst
        export.numbered = true
        export.title = "\(study.name): my responses"
        try await export.write(to: sink)
    }

    /// Calls `body` with each page of the participant's responses, newest first.
    func forEachPage(_ body: ([ResponseInWords]) async throws -> Void) async throws {
        let versions = try await StudySurveyVersions.load(studyID: try study.requireID(), sql: db.sql)
        var reader = try await ExportReader(studyID: try study.requireID(), filter: filter, order: .newestFirst, numbered: true, on: db)
        let feedback = try await FeedbackService.subject(of: study, on: db)
        let times = LocalTimeText()
        while let page = try await reader.nextPage() {
            try await body(page.map { ResponseInWords($0, versions: versions, feedback: feedback, times: times) })
        }
    }
}
