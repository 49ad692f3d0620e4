import Fluent

/// Index of files in the blob store: response photos and passive-data batches, findable by
/// participant, stream and hour so researchers can fetch any slice without reprocessing.
struct M011_CreateBlobs: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("blobs")
            .id()
            .field("participant_id", .uuid, .required, .references("participants", "id", onDelete: .cascade))
            .field("response_id", .uuid, .references("responses", "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("stream", .string)
            .field("hour_start", .datetime)
            .field("storage_path", .string, .required)
            .field("content_type", .string, .required)
            .field("byte_count", .int, .required)
            .field("sha256", .string, .required)
            .field("is_public", .bool, .required)
            .field("upload_key", .string)
            .field("created_at", .datetime, .required)
            .unique(on: "participant_id", "upload_key")
            .create()
        try await SQLIndex.create("blobs_participant_stream_hour", on: "blobs", columns: ["participant_id", "stream", "hour_start"], in: database)
        try await SQLIndex.create("blobs_response_id", on: "blobs", columns: ["response_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("blobs").delete()
    }
}
