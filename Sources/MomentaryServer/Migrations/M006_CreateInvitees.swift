import Fluent

/// Invitation codes: random 5-character codes, globally unique, Invited → Participating → Restricted / Withdrawn.
struct M006_CreateInvitees: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("invitees")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("code", .string, .required)
            .field("status", .string, .required)
            .field("note", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "code")
            .create()
        try await SQLIndex.create("invitees_study_status", on: "invitees", columns: ["study_id", "status"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("invitees").delete()
    }
}
