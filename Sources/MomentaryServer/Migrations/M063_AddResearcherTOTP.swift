import Fluent

/// Two-step sign-in: `researchers.totp_secret` (NULL while off) and `totp_last_step` (so a code
/// is accepted once), and `researcher_recovery_codes`, the hashed single-use recovery codes.
struct M063_AddResearcherTOTP: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite's ALTER TABLE adds one at a time.
        try await database.schema("researchers").field("totp_secret", .string).update()
        try await database.schema("researchers").field("totp_last_step", .int64).update()
        try await database.schema("researcher_recovery_codes")
            .id()
            .field("researcher_id", .uuid, .required, .references("researchers", "id", onDelete: .cascade))
            .field("code_hash", .string, .required)
            .field("used_at", .datetime)
            .unique(on: "researcher_id", "code_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("researcher_recovery_codes").delete()
        try await database.schema("researchers").deleteField("totp_last_step").update()
        try await database.schema("researchers").deleteField("totp_secret").update()
    }
}
