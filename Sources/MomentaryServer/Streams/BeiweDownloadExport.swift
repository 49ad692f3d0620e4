import Fluent
import Foundation
import MomentaryCore

/// `export streams --beiwe-download`: participants' streams as a Beiwe data download lays them out
/// (FORMATS.md §2), so Beiwe's own tools read them as they read a download: a folder per
/// participant (their label) and stream, one file per UTC hour named after it
/// (`2025-03-08 14_00_00+00_00.csv`) with the `UTC time` column, survey streams one folder deeper
/// under the Beiwe survey id (`unknown` for batches that came without one), survey_timings with its
/// `survey id` column, and each survey_answers batch its own file named after when it arrived.
/// Like Beiwe's, the files end without a line break.
enum BeiweDownloadExport {
    struct Summary {
        var files = 0
        var rows = 0
        var batches = 0
    }

    /// The survey folder of batches without a Beiwe survey id (a phone's own uploads).
    static let unknownSurvey = "unknown"

    static func write(
        _ selection: StreamExportSelection, from: Date?, end: Date?, to folder: URL, blobs: BlobStore, on db: any Database
    ) async throws -> Summary {
        var summary = Summary()
        for participant in selection.participants {
            let participantID = try participant.requireID()
            let label = try StreamExportSelection.name(of: participant)
            for stream in selection.streams {
                let streamFolder = folder.appendingPathComponent(label).appendingPathComponent(stream.rawValue)
                guard stream.hasTimestamps else {
                    try await writeAnswers(of: participantID, from: from, end: end, to: streamFolder, blobs: blobs, on: db, summary: &summary)
                    continue
                }
                let surveys = try await StreamBatch.query(on: db).filter(\.$participant.$id == participantID)
                    .filter(\.$stream == stream.rawValue).unique().all(\.$beiweSurveyID)
                for surveyID in Set(surveys) {
                    let survey = stream == .surveyTimings ? (surveyID ?? unknownSurvey) : nil
                    var files = HourFiles(folder: survey.map { streamFolder.appendingPathComponent($0) } ?? streamFolder, stream: stream, surveyID: survey ?? "")
                    let written = try await StreamExport.write(
                        participantID: participantID, stream: stream, from: from, end: end, batches: .beiweSurvey(surveyID), blobs: blobs, on: db
                    ) { piece in try files.add(piece) }
                    try files.close()
                    summary.files += files.count
                    summary.rows += written.rows
                    summary.batches += written.batches
                }
            }
        }
        return summary
    }

    /// Each survey_answers batch received in the span as its own file, as the phone sent it.
    private static func writeAnswers(
        of participantID: UUID, from: Date?, end: Date?, to folder: URL, blobs: BlobStore, on db: any Database, summary: inout Summary
    ) async throws {
        var query = StreamBatch.query(on: db).filter(\.$participant.$id == participantID)
            .filter(\.$stream == PassiveStream.surveyAnswers.rawValue).with(\.$blob)
        if let from { query = query.filter(\.$receivedAt >= from) }
        if let end { query = query.filter(\.$receivedAt < end) }
        var names = Set<String>()
        for batch in try await query.sort(\.$receivedAt).sort(\.$id).all() {
            let time = TimestampText.beiweFileTime(Int(batch.receivedAt.timeIntervalSince1970.rounded(.down)))
            let survey = batch.beiweSurveyID ?? unknownSurvey
            // Beiwe's names for two files of the same second: `…+00_00.csv`, `…+00_00_2.csv`.
            var name = "\(survey)/\(time).csv"
            var repeatNumber = 1
            while names.contains(name) {
                repeatNumber += 1
                name = "\(survey)/\(time)_\(repeatNumber).csv"
            }
            names.insert(name)
            let csv = try Gzip.decompress(try blobs.read(batch.blob.storagePath), limit: Int(batch.csvBytes))
            try write(csv, to: folder.appendingPathComponent(name))
            summary.files += 1
            summary.rows += Int(batch.rowCount)
            summary.batches += 1
        }
    }

    static func write(_ data: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: url.path, contents: data) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    /// Splits a stream's merged rows (in time order) into one download file per UTC hour.
    private struct HourFiles {
        let folder: URL
        let stream: PassiveStream
        let surveyID: String
        private var header: String?
        private var hour: Int64?
        private var rows: [String] = []
        private(set) var count = 0

        init(folder: URL, stream: PassiveStream, surveyID: String) {
            self.folder = folder
            self.stream = stream
            self.surveyID = surveyID
        }

        /// Takes the header, then pieces of whole rows.
        mutating func add(_ piece: Data) throws {
            // Split where the phone's format allows quoted line breaks, which Beiwe's never has.
            let lines = StreamCSV.records(Substring(String(decoding: piece, as: UTF8.self))).map(\.text).filter { !$0.isEmpty }
            if header == nil {
                header = BeiweDownloadCSV.downloadHeader(ofPhoneHeader: lines.first ?? "", stream: stream)
                return
            }
            for row in lines {
                let start = StreamTimestamp.hourStart(of: Int64(row.prefix { $0 != "," }) ?? 0)
                if start != hour { try close() }
                hour = start
                rows.append(BeiweDownloadCSV.downloadRow(row, stream: stream, surveyID: surveyID))
            }
        }

        /// Writes the hour gathered so far.
        mutating func close() throws {
            guard let hour, let header, !rows.isEmpty else { return }
            let name = TimestampText.beiweFileTime(Int(hour / 1000)) + ".csv"
            try BeiweDownloadExport.write(Data(([header] + rows).joined(separator: "\n").utf8), to: folder.appendingPathComponent(name))
            rows = []
            count += 1
        }
    }
}
