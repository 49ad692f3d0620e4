import Fluent
import SQLKit

/// `participants.next_plan_at`: when the participant's current signalling day ends and the
/// planner must add the next one. Indexed, so the dispatcher's "whose day has ended?" costs one
/// index lookup per wake. Participants already taking part are due at once, so the planner
/// picks them up on its first run.
struct M014_AddParticipantNextPlanAt: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("participants")
            .field("next_plan_at", .datetime)
            .update()
        try await SQLIndex.create("participants_next_plan_at", on: "participants", columns: ["next_plan_at"], in: database)
        let sql = database.sql
        try await sql.raw("""
            UPDATE participants SET next_plan_at = registered_at
            WHERE status = 'participating' AND active = \(bind: true)
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("participants_next_plan_at", in: database)
        try await database.schema("participants")
            .deleteField("next_plan_at")
            .update()
    }
}
