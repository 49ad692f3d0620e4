import Fluent

/// Fixed-schedule rule documents (weekly, absolute, relative, date ranges), one per survey.
struct M005_CreateSchedules: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("schedules")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("survey_id", .uuid, .required, .references("surveys", "id", onDelete: .cascade))
            .field("document", .string, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "survey_id")
            .create()
        try await SQLIndex.create("schedules_study_id", on: "schedules", columns: ["study_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("schedules").delete()
    }
}
