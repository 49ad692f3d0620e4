import Fluent

/// The home screen's answering time leaves answers to test beeps out, so it reads each answer's
/// `beep_id` beside its delay: the index of M036 gains it, so the counts and the median still read
/// index entries only.
struct M047_IndexResponseDelaysWithBeep: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SQLIndex.drop("responses_participant_kind_delay", in: database)
        try await SQLIndex.create(
            "responses_participant_kind_delay", on: "responses", columns: ["participant_id", "kind", "delay_seconds", "beep_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("responses_participant_kind_delay", in: database)
        try await SQLIndex.create(
            "responses_participant_kind_delay", on: "responses", columns: ["participant_id", "kind", "delay_seconds"], in: database)
    }
}
