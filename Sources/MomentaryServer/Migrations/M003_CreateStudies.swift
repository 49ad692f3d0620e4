import Fluent

/// Studies, their signalling defaults and which researchers belong to them.
struct M003_CreateStudies: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies")
            .id()
            .field("slug", .string, .required)
            .field("name", .string, .required)
            .field("consent_text", .string, .required)
            .field("invitation_only", .bool, .required)
            .field("scheduling", .string, .required)
            .field("random_sampling", .bool, .required)
            .field("default_timezone", .string, .required)
            .field("min_gap_minutes", .int, .required)
            .field("min_beeps_per_day", .int, .required)
            .field("max_beeps_per_day", .int, .required)
            .field("default_beeps_per_day", .int, .required)
            .field("default_start_minutes", .int, .required)
            .field("default_end_minutes", .int, .required)
            .field("alert_text", .string, .required)
            .field("sounds", .string, .required)
            .field("max_due_at_once", .int, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "slug")
            .create()
        try await database.schema("study_memberships")
            .id()
            .field("researcher_id", .uuid, .required, .references("researchers", "id", onDelete: .cascade))
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .unique(on: "researcher_id", "study_id")
            .create()
        try await SQLIndex.create("study_memberships_study_id", on: "study_memberships", columns: ["study_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("study_memberships").delete()
        try await database.schema("studies").delete()
    }
}
