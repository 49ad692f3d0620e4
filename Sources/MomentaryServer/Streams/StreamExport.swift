import Fluent
import Foundation
import MomentaryCore

/// One participant's stream as one CSV in the stream's own format: the index names the batches
/// that touch the requested hours, only those files are read, and their rows are merged in time
/// order with repeats from overlapping batches dropped (`StreamRowMerge`).
///
/// The CSV is made one UTC day at a time, so memory holds one day of the stream however long the
/// export (a participant-week of 10 Hz accelerometer is about 300 MB of CSV). A row's time decides
/// its day, so repeats always meet in the same day; a batch that crosses midnight is read once for
/// each day it touches.
enum StreamExport {
    struct Summary {
        var batches = 0
        var rows = 0
    }

    /// Receives the CSV in pieces, each ending with a line break: the header first, then a day's rows.
    typealias Sink = (Data) async throws -> Void

    /// Which of the participant's batches are read: all, or those of one Beiwe survey (nil: of none).
    enum Batches {
        case all
        case beiweSurvey(String?)
    }

    private static let dayMilliseconds: Int64 = 86_400_000

    /// Writes rows with `from <= time < end` (either open); for `survey_answers`, whole batches
    /// received in that span. The header is the batches' format's; when a participant's batches
    /// come in two (a phone of each kind), the wider, each row's values under their own names.
    static func write(
        participantID: UUID, stream: PassiveStream, from: Date?, end: Date?, batches selected: Batches = .all, blobs: BlobStore,
        on db: any Database, to sink: Sink
    ) async throws -> Summary {
        var hours = StreamHour.query(on: db).filter(\.$participant.$id == participantID).filter(\.$stream == stream.rawValue)
        if let from {
            hours = hours.filter(\.$hourStart >= Date(milliseconds: StreamTimestamp.hourStart(of: from.milliseconds)))
        }
        if let end { hours = hours.filter(\.$hourStart < end) }
        let index = try await hours.field(\.$batch.$id).field(\.$hourStart).all()
        var batchesByDay: [Int64: Set<UUID>] = [:]
        for hour in index {
            batchesByDay[hour.hourStart.milliseconds.floorDivided(by: dayMilliseconds), default: []].insert(hour.$batch.id)
        }
        let batchIDs = Set(index.map(\.$batch.id))
        // A thousand at a time (a year of hourly batches binds thousands of ids), then in arrival order.
        var batches: [StreamBatch] = []
        for chunk in batchIDs.chunked(1_000) {
            batches += try await StreamBatch.query(on: db).filter(\.$id ~~ chunk).with(\.$blob).all()
        }
        if case .beiweSurvey(let surveyID) = selected { batches = batches.filter { $0.beiweSurveyID == surveyID } }
        batches.sort { ($0.receivedAt, $0.id?.uuidString ?? "") < ($1.receivedAt, $1.id?.uuidString ?? "") }
        let requested = (from?.milliseconds ?? Int64.min)..<(end?.milliseconds ?? Int64.max)
        let output = outputFormat(of: batches, stream: stream)
        try await sink(Data((output.headerLine + "\n").utf8))
        var summary = Summary(batches: batches.count)
        for day in batchesByDay.keys.sorted() {
            let dayStart = day * dayMilliseconds
            let times = max(requested.lowerBound, dayStart)..<min(requested.upperBound, dayStart + dayMilliseconds)
            var merge = StreamRowMerge(stream: stream)
            // In arrival order, which is the order rows without times keep.
            let touching = batchesByDay[day] ?? []
            for batch in batches where batch.id.map(touching.contains) == true {
                let csv = try Gzip.decompress(try blobs.read(batch.blob.storagePath), limit: Int(batch.csvBytes))
                let format = format(of: batch, stream: stream)
                merge.add(batch: format == output ? csv : output.widened(csv, from: format), times: times)
            }
            let merged = merge.merged(withHeader: false)
            summary.rows += merged.rowCount
            if merged.rowCount > 0 { try await sink(merged.csv) }
        }
        return summary
    }

    static func format(of batch: StreamBatch, stream: PassiveStream) -> StreamFormat {
        batch.format.flatMap(stream.format(named:)) ?? stream.formats[0]
    }

    /// The batches' format, or the widest of theirs (the first of equals); the stream's first for none.
    private static func outputFormat(of batches: [StreamBatch], stream: PassiveStream) -> StreamFormat {
        let used = Set(batches.map { format(of: $0, stream: stream) })
        return stream.formats.filter(used.contains).max { $0.columns.count < $1.columns.count } ?? stream.formats[0]
    }

    /// The whole CSV in memory, for small slices and tests.
    static func csv(
        participantID: UUID, stream: PassiveStream, from: Date?, end: Date?, blobs: BlobStore, on db: any Database
    ) async throws -> (csv: Data, summary: Summary) {
        var csv = Data()
        let summary = try await write(participantID: participantID, stream: stream, from: from, end: end, blobs: blobs, on: db) {
            csv.append($0)
        }
        return (csv, summary)
    }
}

private extension Int64 {
    /// Rounds towards minus infinity, so times before 1970 still fall in their own day.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
