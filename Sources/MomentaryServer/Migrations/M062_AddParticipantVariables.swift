import Fluent

/// Participant variables (a partner's name, a baseline score) that piped texts, conditions and
/// exports use: `studies.participant_variables` (a JSON list of definitions; NULL for none) and
/// `participants.variables` (a JSON object of names and values; NULL for none set). Roles that
/// may change participants' status gain `participants.variables`, to set them.
struct M062_AddParticipantVariables: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies").field("participant_variables", .string).update()
        try await database.schema("participants").field("variables", .string).update()
        for granted in try await RolePermission.query(on: database).filter(\.$permission == "participants.status").all() {
            try await RolePermission(roleID: granted.$role.id, permission: "participants.variables").save(on: database)
        }
    }

    func revert(on database: any Database) async throws {
        try await RolePermission.query(on: database).filter(\.$permission == "participants.variables").delete()
        try await database.schema("participants").deleteField("variables").update()
        try await database.schema("studies").deleteField("participant_variables").update()
    }
}
