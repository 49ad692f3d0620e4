import Foundation
import MomentaryCore
import NIOCore
import NIOPosix
import SQLKit
import ZIPFoundation

extension StudyExport {
    /// The files of the whole-study archive, in the order they are written.
    static let archivedFormats: [ExportFormat] = [.long, .wide, .beeps, .messages, .codebook, .context, .json, .xlsx, .kmz, .ics]

    /// A ZIP for archiving a study: every other format (same filter) under its usual file name, the
    /// participants' photos under `photos/<participant label>/`, and a README saying what each file
    /// holds. Each part is written to a temporary folder, zipped off the request threads, streamed,
    /// and removed.
    func writeArchive(to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        let directory = try ScratchFolder.make("archive")
        defer { try? FileManager.default.removeItem(at: directory) }

        var summary = ExportSummary()
        var entries: [(path: String, file: URL)] = []
        let surveys = try await answeredSurveys()
        var wideNames = Set<String>()
        // Two surveys whose names differ only in case or punctuation get numbered files.
        let wideParts = surveys.map { survey -> (name: String, survey: AnsweredSurvey?) in
            var name = ExportFormat.wideFileName(study: request.study, survey: survey.name)
            var number = 2
            while wideNames.contains(name) {
                name = ExportFormat.wideFileName(study: request.study, survey: survey.name + " \(number)")
                number += 1
            }
            wideNames.insert(name)
            return (name, survey)
        }
        for format in Self.archivedFormats {
            // Each survey's wide table is a file of its own; every other format is one file.
            let parts = format == .wide ? wideParts : [(format.fileName(study: request.study), nil)]
            for (name, survey) in parts {
                var part = self
                part.request.format = format
                if let survey {
                    part.request.filter.surveyID = survey.id
                    part.surveyName = survey.name
                }
                let file = directory.appendingPathComponent(name)
                let partSummary = try await part.write(toFile: file)
                if format == .long { summary = partSummary }
                entries.append((name, file))
                progress?(summary)
            }
        }
        let photos = try await photoEntries()
        let readme = directory.appendingPathComponent("README.txt")
        try Data(archiveReadme(photoCount: photos.count, wide: wideParts.map { ($0.name, $0.survey?.name ?? "") }).utf8).write(to: readme)
        entries.insert(("README.txt", readme), at: 0)
        entries += photos

        let zipURL = directory.appendingPathComponent("archive.zip")
        let files = entries
        try await NIOThreadPool.singleton.runIfActive {
            let archive = try Archive(url: zipURL, accessMode: .create)
            for entry in files {
                // Photos are already compressed; deflating them again only costs time.
                let method: CompressionMethod = entry.path.hasPrefix("photos/") ? .none : .deflate
                try archive.addEntry(with: entry.path, fileURL: entry.file, compressionMethod: method)
            }
        }
        try await output.write(fileAt: zipURL)
        return summary
    }

    /// Writes this export to a file, for the archive.
    private func write(toFile url: URL) async throws -> ExportSummary {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw ExportRequestError("Cannot write the temporary file \(url.lastPathComponent).")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let writer = FileChunkWriter(handle: handle)
        return try await write(to: { chunk in try writer.write(chunk) })
    }

    /// Every photo of the exported responses that is in the blob store, named by participant label,
    /// response and question so that each file can be matched to its answer.
    private func photoEntries() async throws -> [(path: String, file: URL)] {
        guard let blobs else { return [] }
        var query: SQLQueryString = """
            SELECT b.storage_path, b.content_type, b.id AS blob_id, r.id AS response_id, p.label AS participant_label
            FROM blobs b JOIN responses r ON r.id = b.response_id JOIN participants p ON p.id = r.participant_id
            WHERE b.kind = 'photo' AND r.study_id = \(bind: studyID)
            """
        query += request.filter.conditions(time: "r.submitted_at", participant: "r.participant_id")
        query += " ORDER BY r.submitted_at, b.id"
        let rows = try await db.sql.raw(query).all(decoding: PhotoRow.self)
        return rows.compactMap { row in
            let file = blobs.root.appendingPathComponent(row.storagePath)
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            let folder = row.participantLabel ?? "unlabelled"
            let name = "\(row.responseId.uuidString.lowercased())-\(row.blobId.uuidString.lowercased().prefix(8))"
            return ("photos/\(folder)/\(name).\(Self.fileExtension(row.contentType))", file)
        }
    }

    private static func fileExtension(_ contentType: String) -> String {
        switch contentType.lowercased() {
        case "image/png": "png"
        case "image/heic": "heic"
        case "image/webp": "webp"
        default: "jpg"
        }
    }

    private func archiveReadme(photoCount: Int, wide files: [(name: String, survey: String)]) -> String {
        let slug = request.study
        let wide = files.map { "\($0.name)  the survey “\($0.survey)”: one row per response, one column per question" }
        return """
            Momentary export of the study “\(slug)”
            \(ExportTimestamp.text(Date())) (UTC)

            \(ExportFormat.long.fileName(study: slug))        one row per answer (long format)
            \(wide.joined(separator: "\n"))
            \(ExportFormat.beeps.fileName(study: slug))          one row per beep: sent, answered, ignored, missed
            \(ExportFormat.messages.fileName(study: slug))       every message between the researchers and the participants
            \(ExportFormat.codebook.fileName(study: slug))       every question and option of every survey version
            \(ExportFormat.context.fileName(study: slug))        one row per response with its sensed context
            \(ExportFormat.json.fileName(study: slug))     every response with its answers and context
            \(ExportFormat.xlsx.fileName(study: slug))     the same tables as an Excel workbook
            \(ExportFormat.kmz.fileName(study: slug))      a map of the responses with a location (Google Earth)
            \(ExportFormat.ics.fileName(study: slug))      a calendar of the responses, one event each
            photos/                  \(photoCount) photo(s), by participant label, named <response_id>-<photo>

            Times: each instant is given as <name>_utc and as <name>_local, the wall-clock time in the
            participant's time zone, which the timezone column names (IANA).
            Answers: the answer (or value) column holds the answer; answer_status says whether the
            question was answered, skipped (NO_ANSWER_SELECTED) or not shown (NOT_PRESENTED).

            """
    }
}

private struct PhotoRow: Decodable {
    let storagePath: String
    let contentType: String
    let blobId: UUID
    let responseId: UUID
    let participantLabel: String?

    enum CodingKeys: String, CodingKey {
        case storagePath = "storage_path", contentType = "content_type", blobId = "blob_id"
        case responseId = "response_id", participantLabel = "participant_label"
    }
}

/// Appends export chunks to an open file.
private final class FileChunkWriter: @unchecked Sendable {
    private let handle: FileHandle

    init(handle: FileHandle) {
        self.handle = handle
    }

    func write(_ chunk: ByteBuffer) throws {
        try handle.write(contentsOf: chunk.readableBytesView)
    }
}
