import Foundation
import MomentaryCore
import NIOPosix
import ZIPFoundation

extension StudyExport {
    /// A KMZ: the KML of every located response (`KMLText`) written to a temporary file as the
    /// pages are read, zipped as `doc.kml` off the event loops, streamed and removed.
    func writePlacemarks(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        let directory = try ScratchFolder.make("kmz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let kml = directory.appendingPathComponent("doc.kml")
        guard FileManager.default.createFile(atPath: kml.path, contents: nil) else {
            throw ExportRequestError("Cannot write the temporary file doc.kml.")
        }
        let handle = try FileHandle(forWritingTo: kml)
        try handle.write(contentsOf: Data(KMLText.header(name: documentTitle).utf8))
        let summary = try await forEachInWords(&reader, progress: progress) { page in
            let placemarks = page.compactMap { KMLText.placemark($0, name: placemarkName($0)) }
            try handle.write(contentsOf: Data(placemarks.joined().utf8))
            return placemarks.count
        }
        try handle.write(contentsOf: Data(KMLText.footer.utf8))
        try handle.close()
        let zip = directory.appendingPathComponent("responses.kmz")
        try await NIOThreadPool.singleton.runIfActive {
            let archive = try Archive(url: zip, accessMode: .create)
            try archive.addEntry(with: "doc.kml", fileURL: kml, compressionMethod: .deflate)
        }
        try await output.write(fileAt: zip)
        return summary
    }

    /// An iCalendar of every response (`ICalendarText`), titled with the feedback slider's value.
    func writeCalendar(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        let now = Date()
        try await output.write(ICalendarText.header(name: documentTitle))
        let summary = try await forEachInWords(&reader, progress: progress) { page in
            try await output.write(page.map { ICalendarText.event($0, now: now) }.joined())
            return page.count
        }
        try await output.write(ICalendarText.footer)
        return summary
    }

    /// "city-moods: responses", or what the caller chose (a participant's own download).
    private var documentTitle: String { title ?? "\(request.study): responses" }

    /// "#12 · Tue 24 Nov 2026, 09:31" in a participant's own download, "ABCDE · …" for researchers.
    private func placemarkName(_ item: ResponseInWords) -> String {
        let who = numbered ? item.record.sequence.map { "#\($0)" } : item.record.participantLabel
        return (who.map { $0 + " · " } ?? "") + item.localTime
    }

    /// Calls `body` with each page of responses in words; `body` returns the rows it wrote.
    private func forEachInWords(
        _ reader: inout ExportReader, progress: ExportProgress?, _ body: ([ResponseInWords]) async throws -> Int
    ) async throws -> ExportSummary {
        let versions = try await StudySurveyVersions.load(studyID: studyID, sql: db.sql)
        let feedback = try await feedbackSubject()
        var summary = ExportSummary()
        let times = LocalTimeText()
        while let page = try await reader.nextPage() {
            summary.rows += try await body(page.map { ResponseInWords($0, versions: versions, feedback: feedback, times: times) })
            summary.responses += page.count
            progress?(summary)
        }
        return summary
    }

    /// What the study's feedback summarises, whose value titles calendar events.
    private func feedbackSubject() async throws -> FeedbackSubject? {
        guard let study = try await Study.find(studyID, on: db) else { return nil }
        return try await FeedbackService.subject(of: study, on: db)
    }
}
