import Fluent
import Foundation
import MomentaryCore

/// Keeps one checked batch: its CSV gzipped in the blob store first, then its blob, batch and hour
/// rows in one transaction (a blob's row is committed only after its bytes are stored). The phone's
/// uploads and `import beiwe-data` both store through here.
enum StreamBatchStore {
    struct NewBatch {
        let participantID: UUID
        let stream: PassiveStream
        let idempotencyKey: String
        /// The CSV as checked by `StreamBatchValidator`, and what the check found.
        let csv: Data
        let summary: StreamBatchSummary
        /// The CSV already gzipped (as the phone sent it), kept as it came; nil to compress `csv`.
        var gzipped: Data? = nil
        let receivedAt: Date
        var beiweSurveyID: String? = nil
    }

    /// Stores the batch and returns its id. On failure nothing is left behind, the file included;
    /// a unique-key failure (the same batch stored at once by another request) is thrown as is.
    static func save(_ new: NewBatch, blobs: BlobStore, on db: any Database) async throws -> UUID {
        let batchID = UUID()
        let participant = new.participantID.uuidString.lowercased()
        let stored = try blobs.write(
            try new.gzipped ?? Gzip.compress(new.csv),
            relativePath: "streams/\(participant)/\(new.stream.rawValue)/\(batchID.uuidString.lowercased()).csv.gz")
        let hours = StreamIndex.hours(of: new.summary, stream: new.stream, receivedAt: new.receivedAt)
        do {
            try await db.transaction { db in
                let blob = Blob()
                blob.$participant.id = new.participantID
                blob.kind = .stream
                blob.stream = new.stream.rawValue
                blob.hourStart = hours.first.map { Date(milliseconds: $0.start) }
                blob.storagePath = stored.relativePath
                blob.contentType = "application/gzip"
                blob.byteCount = stored.byteCount
                blob.sha256 = stored.sha256
                blob.isPublic = false
                blob.uploadKey = "stream:\(new.stream.rawValue):\(new.idempotencyKey)"
                blob.createdAt = new.receivedAt
                try await blob.create(on: db)
                let batch = StreamBatch()
                batch.id = batchID
                batch.$blob.id = try blob.requireID()
                batch.$participant.id = new.participantID
                batch.stream = new.stream.rawValue
                batch.idempotencyKey = new.idempotencyKey
                batch.csvSHA256 = BlobStore.sha256(new.csv)
                batch.csvBytes = Int64(new.csv.count)
                batch.rowCount = Int64(new.summary.rowCount)
                batch.receivedAt = new.receivedAt
                batch.format = new.summary.format == new.stream.formats[0].name ? nil : new.summary.format
                batch.beiweSurveyID = new.beiweSurveyID
                try await batch.create(on: db)
                try await hours.map { StreamIndex.row($0, batchID: batchID, participantID: new.participantID, stream: new.stream) }.create(on: db)
            }
        } catch {
            blobs.remove(stored.relativePath)
            throw error
        }
        return batchID
    }

    /// The participant's batch of `stream` under `key`, if there is one.
    static func batch(key: String, stream: PassiveStream, of participantID: UUID, on db: any Database) async throws -> StreamBatch? {
        try await StreamBatch.query(on: db).filter(\.$participant.$id == participantID)
            .filter(\.$stream == stream.rawValue).filter(\.$idempotencyKey == key).first()
    }
}
