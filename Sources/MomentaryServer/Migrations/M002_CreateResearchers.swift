import Fluent

/// Researcher accounts. A role with researchers cannot be deleted (restrict), so no account is left
/// without a role to say what it may do.
struct M002_CreateResearchers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("researchers")
            .id()
            .field("email", .string, .required)
            .field("name", .string, .required)
            .field("password_hash", .string, .required)
            .field("role_id", .uuid, .required, .references("roles", "id", onDelete: .restrict))
            .field("all_studies", .bool, .required)
            .field("disabled", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("last_sign_in_at", .datetime)
            .unique(on: "email")
            .create()
        try await SQLIndex.create("researchers_role_id", on: "researchers", columns: ["role_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("researchers").delete()
    }
}
