import Fluent

/// `webhooks`: HTTPS endpoints a study sends events to, each with its signing secret and the
/// events it takes. `webhook_deliveries`: the outbox, a row per event and endpoint written in the
/// transaction of the event itself, claimed before each attempt and recorded after.
struct M055_AddWebhooks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("webhooks")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("url", .string, .required)
            .field("secret", .string, .required)
            .field("events", .string, .required)
            .field("created_at", .datetime, .required)
            .field("created_by", .string)
            .create()
        try await SQLIndex.create("webhooks_study_id", on: "webhooks", columns: ["study_id"], in: database)
        try await database.schema("webhook_deliveries")
            .field("id", .string, .identifier(auto: false))
            .field("webhook_id", .uuid, .required, .references("webhooks", "id", onDelete: .cascade))
            .field("event", .string, .required)
            .field("subject_id", .uuid, .required)
            .field("body", .string)
            .field("status", .string, .required)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .datetime, .required)
            .field("claimed_at", .datetime)
            .field("claimed_by", .string)
            .field("last_status", .int)
            .field("last_error", .string)
            .field("created_at", .datetime, .required)
            .field("delivered_at", .datetime)
            .create()
        try await SQLIndex.create("webhook_deliveries_status_next", on: "webhook_deliveries", columns: ["status", "next_attempt_at"], in: database)
        try await SQLIndex.create("webhook_deliveries_webhook_created", on: "webhook_deliveries", columns: ["webhook_id", "created_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("webhook_deliveries_webhook_created", in: database)
        try await SQLIndex.drop("webhook_deliveries_status_next", in: database)
        try await database.schema("webhook_deliveries").delete()
        try await SQLIndex.drop("webhooks_study_id", in: database)
        try await database.schema("webhooks").delete()
    }
}
