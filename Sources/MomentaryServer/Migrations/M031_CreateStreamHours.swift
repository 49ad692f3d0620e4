import Fluent

/// The index of passive data: per batch, one row for each UTC hour its rows fall in, so a slice
/// (participant, stream, hours) names exactly the files to read and nothing is processed later.
struct M031_CreateStreamHours: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("stream_hours")
            .id()
            .field("batch_id", .uuid, .required, .references("stream_batches", "id", onDelete: .cascade))
            .field("participant_id", .uuid, .required, .references("participants", "id", onDelete: .cascade))
            .field("stream", .string, .required)
            .field("hour_start", .datetime, .required)
            .field("first_ms", .int64, .required)
            .field("last_ms", .int64, .required)
            .field("row_count", .int64, .required)
            .create()
        try await SQLIndex.create("stream_hours_participant_stream_hour", on: "stream_hours", columns: ["participant_id", "stream", "hour_start"], in: database)
        try await SQLIndex.create("stream_hours_batch", on: "stream_hours", columns: ["batch_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("stream_hours").delete()
    }
}
