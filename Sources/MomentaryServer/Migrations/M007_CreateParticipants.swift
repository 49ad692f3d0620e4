import Fluent

/// One registered installation of a participant app, with its hashed secret, zone, settings and push channel.
struct M007_CreateParticipants: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("participants")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .restrict))
            .field("invitee_id", .uuid, .references("invitees", "id", onDelete: .setNull))
            .field("secret_hash", .string, .required)
            .field("status", .string, .required)
            .field("active", .bool, .required)
            .field("timezone", .string, .required)
            .field("beeps_per_day", .int, .required)
            .field("signal_start_minutes", .int, .required)
            .field("signal_end_minutes", .int, .required)
            .field("sound", .string)
            .field("push_channel", .string, .required)
            .field("push_token", .string)
            .field("push_keys", .string)
            .field("push_health", .string)
            .field("device_model", .string)
            .field("device_os", .string)
            .field("app_version", .string)
            .field("registered_at", .datetime, .required)
            .field("registered_local_date", .string, .required)
            .field("last_seen_at", .datetime)
            .field("planned_through", .string)
            .field("download_token_hash", .string)
            .field("withdrawn_at", .datetime)
            .field("updated_at", .datetime, .required)
            .unique(on: "download_token_hash")
            .create()
        try await SQLIndex.create("participants_study_id", on: "participants", columns: ["study_id"], in: database)
        try await SQLIndex.create("participants_invitee_id", on: "participants", columns: ["invitee_id"], in: database)
        try await SQLIndex.create("participants_push_token", on: "participants", columns: ["push_token"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("participants").delete()
    }
}
