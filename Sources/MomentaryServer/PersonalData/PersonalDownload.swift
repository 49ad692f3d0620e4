import Fluent
import Foundation
import MomentaryCore
import NIOPosix
import SQLKit
import Vapor
import ZIPFoundation

/// A participant's own data, behind their secret link (`/my/{code}`): newest first, filtered by
/// local dates and by sequence number, as an HTML page (charts, answers, photos), CSV, JSON, KMZ or
/// iCalendar. CSV and JSON are the researchers' wide and JSON exports restricted to the
/// participant, with a `sequence` number added; each format streams a page of responses at a time.
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
    }

    let participant: Participant
    let study: Study
    /// The link's code as shown (`bcdf-ghjk-…`), for links within the page.
    let code: String
    let filter: ExportFilter
    let db: any Database
    let now: Date

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
        if format == .csv || format == .json {
            var export = StudyExport(
                request: ExportRequest(study: study.slug, format: format == .csv ? .wide : .json, filter: filter),
                studyID: try study.requireID(), db: db, blobs: nil)
            export.order = .newestFirst
            export.numbered = true
            try await export.write(to: sink)
            return
        }
        let output = ExportOutput(sink: sink)
        switch format {
        case .kmz: try await writeKMZ(to: output)
        case .ics: try await writeCalendar(to: output)
        default: try await PersonalDownloadPage(download: self).write(to: output)
        }
        try await output.flush()
    }

    /// Calls `body` with each page of the participant's responses, newest first.
    func forEachPage(_ body: ([PersonalRecord]) async throws -> Void) async throws {
        let versions = try await StudySurveyVersions.load(studyID: try study.requireID(), sql: StudyExport.sql(db))
        var reader = try await ExportReader(studyID: try study.requireID(), filter: filter, order: .newestFirst, numbered: true, on: db)
        let feedbackID = try await feedbackQuestion()?.id
        while let page = try await reader.nextPage() {
            try await body(page.map { PersonalRecord($0, versions: versions, feedbackQuestionID: feedbackID) })
        }
    }

    /// The slider the study's feedback summarises, for event titles.
    func feedbackQuestion() async throws -> SurveyQuestion? {
        guard let survey = try await SurveyCatalog.defaultExperienceSurvey(of: try study.requireID(), on: db) else { return nil }
        let document = try SurveyCatalog.document(of: try await SurveyCatalog.currentVersion(of: survey, on: db))
        return FeedbackCalculator.feedbackQuestion(in: document, named: study.feedbackQuestionID)
    }

    private func writeCalendar(to output: ExportOutput) async throws {
        let title = try await feedbackQuestion().map { Self.shortTitle($0.text) }
        try await output.write(ICalendarText.header(name: "\(study.name): my responses"))
        try await forEachPage { page in
            try await output.write(page.map { ICalendarText.event($0, feedbackQuestion: title, now: now) }.joined())
        }
        try await output.write(ICalendarText.footer)
    }

    /// "Do you feel happy?" → "Happy", for a short event title; other texts as they are.
    static func shortTitle(_ question: String) -> String {
        let trimmed = question.trimmingCharacters(in: CharacterSet(charactersIn: "?. "))
        for prefix in ["Do you feel ", "How do you feel ", "How "] where trimmed.hasPrefix(prefix) {
            let rest = trimmed.dropFirst(prefix.count)
            return rest.prefix(1).uppercased() + rest.dropFirst()
        }
        return trimmed
    }

    /// The KML is written to a temporary file as the pages are read, zipped as `doc.kml` off the
    /// event loops, streamed and removed.
    private func writeKMZ(to output: ExportOutput) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("momentary-kmz-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let kml = directory.appendingPathComponent("doc.kml")
        guard FileManager.default.createFile(atPath: kml.path, contents: nil) else {
            throw ExportRequestError("Cannot write the temporary file doc.kml.")
        }
        let handle = try FileHandle(forWritingTo: kml)
        try handle.write(contentsOf: Data(KMLText.header(name: "\(study.name): my responses").utf8))
        try await forEachPage { page in
            try handle.write(contentsOf: Data(page.compactMap(KMLText.placemark).joined().utf8))
        }
        try handle.write(contentsOf: Data(KMLText.footer.utf8))
        try handle.close()
        let zip = directory.appendingPathComponent("responses.kmz")
        try await NIOThreadPool.singleton.runIfActive {
            let archive = try Archive(url: zip, accessMode: .create)
            try archive.addEntry(with: "doc.kml", fileURL: kml, compressionMethod: .deflate)
        }
        try await output.write(fileAt: zip)
    }
}
