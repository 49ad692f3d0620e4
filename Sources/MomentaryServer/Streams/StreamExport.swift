import Fluent
import Foundation
import MomentaryCore

/// One participant's stream as one CSV in the stream's own format: the index names the batches
/// that touch the requested hours, only those files are read, and their rows are merged in time
/// order with repeats from overlapping batches dropped (`StreamRowMerge`).
enum StreamExport {
    struct Result {
        let csv: Data
        let batches: Int
        let rows: Int
    }

    /// Rows with `from <= time < end` (either open); for `survey_answers`, whole batches received in that span.
    static func csv(
        participantID: UUID, stream: PassiveStream, from: Date?, end: Date?, blobs: BlobStore, on db: any Database
    ) async throws -> Result {
        var hours = StreamHour.query(on: db).filter(\.$participant.$id == participantID).filter(\.$stream == stream.rawValue)
        if let from {
            hours = hours.filter(\.$hourStart >= Date(milliseconds: StreamTimestamp.hourStart(of: from.milliseconds)))
        }
        if let end { hours = hours.filter(\.$hourStart < end) }
        let batchIDs = Set(try await hours.all(\.$batch.$id))
        guard !batchIDs.isEmpty else {
            return Result(csv: StreamRowMerge(stream: stream).csv(), batches: 0, rows: 0)
        }
        let batches = try await StreamBatch.query(on: db).filter(\.$id ~~ batchIDs).with(\.$blob)
            .sort(\.$receivedAt).sort(\.$id).all()
        let range = (from?.milliseconds ?? Int64.min)..<(end?.milliseconds ?? Int64.max)
        var merge = StreamRowMerge(stream: stream)
        for batch in batches {
            let csv = try Gzip.decompress(try blobs.read(batch.blob.storagePath), limit: Int(batch.csvBytes))
            merge.add(batch: csv, times: range)
        }
        let merged = merge.merged()
        return Result(csv: merged.csv, batches: batches.count, rows: merged.rowCount)
    }
}
