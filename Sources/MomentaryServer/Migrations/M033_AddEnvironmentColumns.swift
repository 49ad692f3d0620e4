import Fluent
import SQLKit

/// The columns environment enrichment needs on existing tables.
///
/// `response_contexts.environment_reading_id`: the cell-hour reading a response with a location
/// was assigned to, so a fetched reading is copied to its responses in one update, and a response
/// is picked up by the enrichment job exactly once. No foreign key: readings are a cache that is
/// never deleted, and SQLite cannot add one to an existing table.
///
/// `participants.pollen_sensitivity`: the pollen type the participant chose in the app (`PUT
/// /api/v1/settings`); their pollen risk follows it, grass when unset.
struct M033_AddEnvironmentColumns: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("participants").field("pollen_sensitivity", .string).update()
        try await database.schema("response_contexts").field("environment_reading_id", .uuid).update()
        try await SQLIndex.create(
            "response_contexts_environment_reading", on: "response_contexts", columns: ["environment_reading_id"], in: database)
        let sql = database.sql
        // Responses still to be assigned: a partial index, so the job's look-up stays small however
        // many located responses are already done or how many have no location at all.
        try await sql.raw("""
            CREATE INDEX response_contexts_environment_pending ON response_contexts (response_id)
            WHERE environment_reading_id IS NULL AND latitude IS NOT NULL AND longitude IS NOT NULL
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("response_contexts_environment_pending", in: database)
        try await SQLIndex.drop("response_contexts_environment_reading", in: database)
        try await database.schema("response_contexts").deleteField("environment_reading_id").update()
        try await database.schema("participants").deleteField("pollen_sensitivity").update()
    }
}
