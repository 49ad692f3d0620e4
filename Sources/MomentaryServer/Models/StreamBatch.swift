import Fluent
import Foundation

/// An accepted upload of one passive stream; its file is `blob`.
final class StreamBatch: Model, @unchecked Sendable {
    static let schema = "stream_batches"

    @ID(key: .id) var id: UUID?
    @Parent(key: "blob_id") var blob: Blob
    @Parent(key: "participant_id") var participant: Participant
    @Field(key: "stream") var stream: String
    /// The client's `Idempotency-Key`: the same key again returns this batch's receipt.
    @Field(key: "idempotency_key") var idempotencyKey: String
    /// SHA-256 of the uncompressed CSV, to tell a retry from a different batch under the same key.
    @Field(key: "csv_sha256") var csvSHA256: String
    @Field(key: "csv_bytes") var csvBytes: Int64
    @Field(key: "row_count") var rowCount: Int64
    @Field(key: "received_at") var receivedAt: Date
    /// The phone's column set, a `StreamFormat` name (M049); nil for the stream's first (iOS).
    @OptionalField(key: "format") var format: String?
    /// The Beiwe survey a survey stream's file was recorded for, when imported from a Beiwe download (M049).
    @OptionalField(key: "beiwe_survey_id") var beiweSurveyID: String?

    init() {}
}
