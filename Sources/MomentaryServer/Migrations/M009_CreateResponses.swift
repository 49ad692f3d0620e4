import Fluent

/// Answer sets and their answers. The idempotency key is unique per participant, so a retried
/// upload can never create a second response; a beep is answered at most once.
struct M009_CreateResponses: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("responses")
            .id()
            .field("participant_id", .uuid, .required, .references("participants", "id", onDelete: .cascade))
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("survey_id", .uuid, .required, .references("surveys", "id", onDelete: .restrict))
            .field("survey_version", .int, .required)
            .field("beep_id", .uuid, .references("beeps", "id", onDelete: .setNull))
            .field("kind", .string, .required)
            .field("volunteered", .bool, .required)
            .field("idempotency_key", .string, .required)
            .field("started_at", .datetime, .required)
            .field("submitted_at", .datetime, .required)
            .field("received_at", .datetime, .required)
            .field("delay_seconds", .double)
            .unique(on: "participant_id", "idempotency_key")
            .unique(on: "beep_id")
            .create()
        try await SQLIndex.create("responses_participant_submitted", on: "responses", columns: ["participant_id", "submitted_at"], in: database)
        try await SQLIndex.create("responses_study_submitted", on: "responses", columns: ["study_id", "submitted_at"], in: database)
        try await database.schema("answers")
            .id()
            .field("response_id", .uuid, .required, .references("responses", "id", onDelete: .cascade))
            .field("position", .int, .required)
            .field("question_id", .string, .required)
            .field("question_type", .string, .required)
            .field("status", .string, .required)
            .field("value", .string)
            .unique(on: "response_id", "question_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("answers").delete()
        try await database.schema("responses").delete()
    }
}
