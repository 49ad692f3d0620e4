import Fluent

/// The participants page lists a study's participants in registration order, a page at a time; an
/// index on (study_id, registered_at) lets the database read one page instead of sorting them all.
struct M018_AddParticipantListIndex: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SQLIndex.create("participants_study_registered", on: "participants", columns: ["study_id", "registered_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("participants_study_registered", in: database)
    }
}
