import Fluent

/// The context captured with a response: place, sound, battery, connection, steps, what prompted it,
/// and the environment (weather, air quality, pollen) attached later by the server.
struct M010_CreateResponseContexts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("response_contexts")
            .id()
            .field("response_id", .uuid, .required, .references("responses", "id", onDelete: .cascade))
            .field("latitude", .double)
            .field("longitude", .double)
            .field("altitude", .double)
            .field("horizontal_accuracy", .double)
            .field("vertical_accuracy", .double)
            .field("located_at", .datetime)
            .field("place_text", .string)
            .field("country", .string)
            .field("sound_average_db", .double)
            .field("sound_peak_db", .double)
            .field("battery", .double)
            .field("connection", .string)
            .field("steps", .int)
            .field("impetus", .string)
            .field("weather", .string)
            .field("air_quality", .string)
            .field("pollen", .string)
            .unique(on: "response_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("response_contexts").delete()
    }
}
