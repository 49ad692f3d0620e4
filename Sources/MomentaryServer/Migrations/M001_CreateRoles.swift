import Fluent

/// Researcher roles and the permissions each grants (ClimaFever's Researcher / Developer, plus custom roles).
struct M001_CreateRoles: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("roles")
            .id()
            .field("name", .string, .required)
            .field("description", .string, .required)
            .field("built_in", .bool, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "name")
            .create()
        try await database.schema("role_permissions")
            .id()
            .field("role_id", .uuid, .required, .references("roles", "id", onDelete: .cascade))
            .field("permission", .string, .required)
            .unique(on: "role_id", "permission")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("role_permissions").delete()
        try await database.schema("roles").delete()
    }
}
