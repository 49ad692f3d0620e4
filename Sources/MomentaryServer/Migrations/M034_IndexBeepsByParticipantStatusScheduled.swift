import Fluent

/// `beeps (participant_id, status, scheduled_at)` in place of M015's `(participant_id, status)`,
/// which it covers. Every answer upload asks for the participant's latest sent beep (with its
/// credentials, see `UploadLookup`); with `scheduled_at` in the index that is one
/// seek, where the older index had the database read and sort every sent beep of the participant
/// to find the latest, a cost that grew with however many were left unanswered.
struct M034_IndexBeepsByParticipantStatusScheduled: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SQLIndex.create(
            "beeps_participant_status_scheduled", on: "beeps", columns: ["participant_id", "status", "scheduled_at"], in: database)
        try await SQLIndex.drop("beeps_participant_status", in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.create("beeps_participant_status", on: "beeps", columns: ["participant_id", "status"], in: database)
        try await SQLIndex.drop("beeps_participant_status_scheduled", in: database)
    }
}
