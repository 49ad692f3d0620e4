import Fluent
import Foundation

/// The two roles of the ClimaFever access table. Permission names are written out here, not taken
/// from `Permission`, so this migration keeps meaning what it meant when it landed.
struct M012_SeedBuiltInRoles: AsyncMigration {
    static let researcherPermissions = ["responses.view", "invitees.view", "invitees.create", "invitees.restrict"]
    static let developerPermissions = [
        "responses.view", "responses.export", "invitees.view", "invitees.create", "invitees.restrict",
        "participants.view", "participants.status", "participants.beep", "studies.view", "studies.edit",
        "data.delete", "researchers.manage", "roles.manage",
    ]

    func prepare(on database: any Database) async throws {
        try await database.transaction { db in
            try await Self.createRole(
                "Researcher", "Views responses; views, creates and restricts invitees.", Self.researcherPermissions, on: db)
            try await Self.createRole(
                "Developer", "Everything, including deletes, statuses, researchers and roles.", Self.developerPermissions, on: db)
        }
    }

    func revert(on database: any Database) async throws {
        try await Role.query(on: database).filter(\.$builtIn == true).delete()
    }

    private static func createRole(_ name: String, _ description: String, _ permissions: [String], on db: any Database) async throws {
        let role = Role(name: name, description: description, builtIn: true, createdAt: Date())
        try await role.save(on: db)
        for permission in permissions {
            try await RolePermission(roleID: try role.requireID(), permission: permission).save(on: db)
        }
    }
}
