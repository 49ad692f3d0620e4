import Fluent

/// Beeps another system asks for through the research API (origin `api`): `request_key` (the
/// caller's Idempotency-Key, unique per participant, so a retried call is one beep) and
/// `ignores_hours` (sent whatever the participant's hours, when the caller said so). Tokens gain
/// `triggers_beeps`: only a token made for it may beep participants.
struct M054_AddAPIBeeps: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("beeps").field("request_key", .string).update()
        try await database.schema("beeps").field("ignores_hours", .bool).update()
        try await SQLIndex.create("beeps_participant_request_key", on: "beeps", columns: ["participant_id", "request_key"], unique: true, in: database)
        try await database.schema("access_tokens").field("triggers_beeps", .bool, .required, .sql(.default(false))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("access_tokens").deleteField("triggers_beeps").update()
        try await SQLIndex.drop("beeps_participant_request_key", in: database)
        try await database.schema("beeps").deleteField("ignores_hours").update()
        try await database.schema("beeps").deleteField("request_key").update()
    }
}
