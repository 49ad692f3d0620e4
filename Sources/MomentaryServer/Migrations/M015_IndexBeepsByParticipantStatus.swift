import Fluent

/// `beeps (participant_id, status)`: the signaller asks "this participant's sent (or pending)
/// beeps" on every delivery, settings change and withdrawal. Without it SQLite answered from the
/// (status, scheduled_at) index, walking every sent or pending beep of every participant, a cost
/// that grows with the whole study.
struct M015_IndexBeepsByParticipantStatus: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SQLIndex.create("beeps_participant_status", on: "beeps", columns: ["participant_id", "status"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("beeps_participant_status", in: database)
    }
}
