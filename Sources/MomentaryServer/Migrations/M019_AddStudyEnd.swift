import Fluent

/// An optional end to a study: a last date, and/or a number of days per participant from
/// registration (see `StudyEnd`). Both empty for existing studies, which then never end.
struct M019_AddStudyEnd: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies").field("ends_on", .string).update()
        try await database.schema("studies").field("ends_after_days", .int).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("studies").deleteField("ends_after_days").update()
        try await database.schema("studies").deleteField("ends_on").update()
    }
}
