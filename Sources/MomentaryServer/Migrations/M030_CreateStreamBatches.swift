import Fluent

/// Accepted passive-data batches: one row per upload, next to its `blobs` row (the `.csv.gz`
/// file), holding what idempotency and the per-participant allowance need: the client's key, a
/// digest of the CSV it sent, and the CSV's size.
struct M030_CreateStreamBatches: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("stream_batches")
            .id()
            .field("blob_id", .uuid, .required, .references("blobs", "id", onDelete: .cascade))
            .field("participant_id", .uuid, .required, .references("participants", "id", onDelete: .cascade))
            .field("stream", .string, .required)
            .field("idempotency_key", .string, .required)
            .field("csv_sha256", .string, .required)
            .field("csv_bytes", .int64, .required)
            .field("row_count", .int64, .required)
            .field("received_at", .datetime, .required)
            .unique(on: "participant_id", "stream", "idempotency_key")
            .create()
        try await SQLIndex.create("stream_batches_participant_received", on: "stream_batches", columns: ["participant_id", "received_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("stream_batches").delete()
    }
}
