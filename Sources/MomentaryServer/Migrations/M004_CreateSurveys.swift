import Fluent

/// Surveys of a study and every saved version of each (a response records the version it answered).
struct M004_CreateSurveys: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("surveys")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("name", .string, .required)
            .field("position", .int, .required)
            .field("current_version", .int, .required)
            .field("active", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "study_id", "name")
            .create()
        try await database.schema("survey_versions")
            .id()
            .field("survey_id", .uuid, .required, .references("surveys", "id", onDelete: .cascade))
            .field("version", .int, .required)
            .field("document", .string, .required)
            .field("author_id", .uuid, .references("researchers", "id", onDelete: .setNull))
            .field("created_at", .datetime, .required)
            .unique(on: "survey_id", "version")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("survey_versions").delete()
        try await database.schema("surveys").delete()
    }
}
