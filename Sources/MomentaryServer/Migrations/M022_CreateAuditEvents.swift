import Fluent

/// The researchers' audit log: who did what on the website, when and from where. The researcher is
/// copied by id and email rather than referenced, so the record outlives a deleted account.
struct M022_CreateAuditEvents: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("audit_events")
            .id()
            .field("occurred_at", .datetime, .required)
            .field("researcher_id", .uuid)
            .field("researcher_email", .string)
            .field("action", .string, .required)
            .field("target", .string, .required)
            .field("outcome", .string, .required)
            .field("address", .string, .required)
            .create()
        try await SQLIndex.create("audit_events_occurred_at", on: "audit_events", columns: ["occurred_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("audit_events").delete()
    }
}
