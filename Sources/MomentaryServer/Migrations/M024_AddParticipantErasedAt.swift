import Fluent

/// `participants.erased_at`: when researchers erased a participant but kept their beeps for
/// compliance; the row that remains identifies no one.
struct M024_AddParticipantErasedAt: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("participants").field("erased_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("participants").deleteField("erased_at").update()
    }
}
