import Foundation

/// Answer of `POST /api/v1/uploads/{stream}`: 201 when the batch was stored, 200 with the same
/// body when its `Idempotency-Key` had already been used for the same CSV (a retried upload).
public struct StreamBatchReceipt: Codable, Sendable, Hashable {
    public var batchID: UUID
    public var stream: PassiveStream
    public var rowCount: Int
    /// Earliest and latest row time, milliseconds since 1970; absent for `survey_answers`.
    public var firstTimestamp: Int64?
    public var lastTimestamp: Int64?

    public init(batchID: UUID, stream: PassiveStream, rowCount: Int, firstTimestamp: Int64?, lastTimestamp: Int64?) {
        self.batchID = batchID
        self.stream = stream
        self.rowCount = rowCount
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
    }

    enum CodingKeys: String, CodingKey {
        case batchID = "batch_id"
        case stream
        case rowCount = "row_count"
        case firstTimestamp = "first_timestamp"
        case lastTimestamp = "last_timestamp"
    }
}
