import Fluent
import Foundation
import MomentaryCore

/// Takes a passive-data batch (`POST /api/v1/uploads/{stream}`): checks it completely, then keeps
/// the CSV gzipped in the blob store and indexes it by hour in one transaction. Nothing is
/// processed later. A refused batch leaves nothing behind; a retry with the same key and CSV gets
/// the first receipt, the same key with another CSV a 409.
enum StreamUploadService {
    struct Upload {
        let stream: PassiveStream
        let idempotencyKey: String?
        let body: Data
        let gzipped: Bool
    }

    struct Outcome {
        let receipt: StreamBatchReceipt
        let created: Bool
    }

    static func store(
        _ upload: Upload, from participantID: UUID, limits: StreamUploadLimits,
        blobs: BlobStore, on db: any Database, now: Date
    ) async throws -> Outcome {
        guard let key = upload.idempotencyKey, ResponseSubmission.isValidIdempotencyKey(key) else {
            throw APIError(.badRequest, "Send an \(APIRoute.idempotencyKeyHeader) header of 1–\(ResponseSubmission.maximumIdempotencyKeyLength) letters, digits, '-', '_', '.' or ':', the same for every retry of this batch.", field: APIRoute.idempotencyKeyHeader)
        }
        let csv = try inflate(upload, limit: limits.batchBytes)
        let digest = BlobStore.sha256(csv)
        if let earlier = try await StreamBatchStore.batch(key: key, stream: upload.stream, of: participantID, on: db) {
            return try await repeated(earlier, digest: digest, stream: upload.stream, on: db)
        }
        let summary = try StreamBatchValidator.validate(csv, as: upload.stream)
        try await checkAllowance(adding: csv.count, for: participantID, limits: limits, on: db, now: now)

        let batchID: UUID
        do {
            // What the phone compressed is kept as it came: it was just inflated and checked whole.
            batchID = try await StreamBatchStore.save(
                .init(participantID: participantID, stream: upload.stream, idempotencyKey: key, csv: csv, summary: summary,
                      gzipped: upload.gzipped ? upload.body : nil, receivedAt: now),
                blobs: blobs, on: db)
        } catch {
            // The same batch sent twice at once: the unique key lets one in; answer as a retry.
            guard (error as? any DatabaseError)?.isConstraintFailure == true,
                  let winner = try await StreamBatchStore.batch(key: key, stream: upload.stream, of: participantID, on: db)
            else { throw error }
            return try await repeated(winner, digest: digest, stream: upload.stream, on: db)
        }
        let receipt = StreamBatchReceipt(
            batchID: batchID, stream: upload.stream, rowCount: summary.rowCount, firstTimestamp: summary.first, lastTimestamp: summary.last)
        return Outcome(receipt: receipt, created: true)
    }

    private static func inflate(_ upload: Upload, limit: Int) throws -> Data {
        let tooLarge = APIError(.payloadTooLarge, "A batch may hold at most \(limit >> 20) MiB of CSV; send smaller batches.")
        guard upload.gzipped else {
            guard upload.body.count <= limit else { throw tooLarge }
            return upload.body
        }
        do {
            return try Gzip.decompress(upload.body, limit: limit)
        } catch Gzip.Failure.tooLarge {
            throw tooLarge
        } catch {
            throw APIError(.badRequest, "The body is not intact gzip data although Content-Encoding says gzip.")
        }
    }

    private static func repeated(_ batch: StreamBatch, digest: String, stream: PassiveStream, on db: any Database) async throws -> Outcome {
        guard batch.csvSHA256 == digest else {
            throw APIError(.conflict, "This \(APIRoute.idempotencyKeyHeader) was already used for a different \(stream.rawValue) batch; give each batch its own key.", field: APIRoute.idempotencyKeyHeader)
        }
        let batchID = try batch.requireID()
        var first: Int64?, last: Int64?
        if stream.hasTimestamps {
            let hours = try await StreamHour.query(on: db).filter(\.$batch.$id == batchID).all()
            first = hours.map(\.firstMilliseconds).min()
            last = hours.map(\.lastMilliseconds).max()
        }
        let receipt = StreamBatchReceipt(batchID: batchID, stream: stream, rowCount: Int(batch.rowCount), firstTimestamp: first, lastTimestamp: last)
        return Outcome(receipt: receipt, created: false)
    }

    /// At most `dailyBytes` of CSV from one participant in any 24 hours.
    private static func checkAllowance(adding bytes: Int, for participantID: UUID, limits: StreamUploadLimits, on db: any Database, now: Date) async throws {
        let window = now.addingTimeInterval(-86_400)
        func recent() -> QueryBuilder<StreamBatch> {
            StreamBatch.query(on: db).filter(\.$participant.$id == participantID).filter(\.$receivedAt > window)
        }
        // Summed here rather than by SUM(), which PostgreSQL answers as numeric: a day holds a few hundred batches at most.
        let used = try await recent().all(\.$csvBytes).reduce(0, +)
        guard used + Int64(bytes) > Int64(limits.dailyBytes) else { return }
        let oldest = try await recent().sort(\.$receivedAt).first()?.receivedAt ?? now
        let wait = max(60, Int(oldest.addingTimeInterval(86_400).timeIntervalSince(now).rounded(.up)))
        throw APIError(.tooManyRequests, "You have sent \(used >> 20) MiB of sensor data in the last 24 hours, and the study takes at most \(limits.dailyBytes >> 20) MiB a day; the batch will be taken later.")
            .retryingAfter(seconds: wait)
    }
}
