import Fluent

/// Follow-up beeps (origin `follow_up`), planned when a response meets a rule of its survey's
/// `follow_ups`: `trigger_response_id` is the response that asked for the beep and
/// `trigger_rule` the rule's position in the list. The unique index makes one (response, rule)
/// plan at most one beep, whatever retries or replays happen (NULLs, every other beep, do not
/// collide).
struct M058_AddFollowUps: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("beeps").field("trigger_response_id", .uuid).update()
        try await database.schema("beeps").field("trigger_rule", .int).update()
        try await SQLIndex.create("beeps_trigger_response_rule", on: "beeps", columns: ["trigger_response_id", "trigger_rule"], unique: true, in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("beeps_trigger_response_rule", in: database)
        try await database.schema("beeps").deleteField("trigger_rule").update()
        try await database.schema("beeps").deleteField("trigger_response_id").update()
    }
}
