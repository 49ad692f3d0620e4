import Fluent

/// Every beep from planning to outcome, in one row: pending → sending → sent (or failed), then
/// answered, ignored, expired or missed. One row per beep (rather than Mappiness' separate pending
/// and sent tables) keeps the whole history of a beep provable; claiming is a status change.
struct M008_CreateBeeps: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("beeps")
            .id()
            .field("participant_id", .uuid, .required, .references("participants", "id", onDelete: .cascade))
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("survey_id", .uuid, .references("surveys", "id", onDelete: .setNull))
            .field("origin", .string, .required)
            .field("local_date", .string, .required)
            .field("sequence", .int, .required)
            .field("scheduled_at", .datetime, .required)
            .field("status", .string, .required)
            .field("claimed_at", .datetime)
            .field("claimed_by", .string)
            .field("sent_at", .datetime)
            .field("delivery_outcome", .string)
            .field("delivery_reason", .string)
            .field("expires_at", .datetime)
            .field("ignored_at", .datetime)
            .field("answered_at", .datetime)
            .field("created_at", .datetime, .required)
            .unique(on: "participant_id", "origin", "local_date", "sequence")
            .create()
        // The dispatcher's question: which beeps are due now?
        try await SQLIndex.create("beeps_status_scheduled_at", on: "beeps", columns: ["status", "scheduled_at"], in: database)
        // A participant's beeps in time order (status, pending beep, compliance).
        try await SQLIndex.create("beeps_participant_scheduled_at", on: "beeps", columns: ["participant_id", "scheduled_at"], in: database)
        try await SQLIndex.create("beeps_study_scheduled_at", on: "beeps", columns: ["study_id", "scheduled_at"], in: database)
        try await database.schema("delivery_attempts")
            .id()
            .field("beep_id", .uuid, .required, .references("beeps", "id", onDelete: .cascade))
            .field("channel", .string, .required)
            .field("attempted_at", .datetime, .required)
            .field("outcome", .string, .required)
            .field("status_code", .int)
            .field("reason", .string)
            .field("duration_ms", .double)
            .create()
        try await SQLIndex.create("delivery_attempts_beep_id", on: "delivery_attempts", columns: ["beep_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("delivery_attempts").delete()
        try await database.schema("beeps").delete()
    }
}
