import Fluent

/// The participants page orders by (registered_at, id): id breaks ties between participants
/// registered in the same instant (an import). M018's index lacked it, so the database sorted a
/// whole study to find one page; with it the page is read in order (figures: BENCHMARKS.md,
/// `Benchmarks/scripts/list_pages_bench.py`).
struct M027_IndexParticipantsByRegistrationAndID: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SQLIndex.create(
            "participants_study_registered_id", on: "participants", columns: ["study_id", "registered_at", "id"], in: database)
        try await SQLIndex.drop("participants_study_registered", in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.create("participants_study_registered", on: "participants", columns: ["study_id", "registered_at"], in: database)
        try await SQLIndex.drop("participants_study_registered_id", in: database)
    }
}
