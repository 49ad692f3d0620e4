import Fluent
import Foundation

/// A file in the blob store: a response photo or a batch of passive data.
final class Blob: Model, @unchecked Sendable {
    static let schema = "blobs"

    enum Kind: String, Codable, Sendable {
        case photo, stream
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "participant_id") var participant: Participant
    @OptionalParent(key: "response_id") var response: SurveyResponse?
    @Field(key: "kind") var kind: Kind
    @OptionalField(key: "stream") var stream: String?
    /// Start of the UTC hour the batch's records fall in.
    @OptionalField(key: "hour_start") var hourStart: Date?
    /// Path relative to the blob store's root directory.
    @Field(key: "storage_path") var storagePath: String
    @Field(key: "content_type") var contentType: String
    @Field(key: "byte_count") var byteCount: Int
    @Field(key: "sha256") var sha256: String
    @Field(key: "is_public") var isPublic: Bool
    /// Client-chosen key making a retried upload a no-op.
    @OptionalField(key: "upload_key") var uploadKey: String?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
