import Fluent

/// `responses (participant_id, kind, delay_seconds)`, for the app's home screen
/// (`ParticipantStatusService`): it counts the participant's answers and their delays and finds
/// the median delay. Through `(participant_id, submitted_at)` each of those read every response
/// row of the participant and sorted the delays, on every status request, a cost that grew with
/// every answer (figures: BENCHMARKS.md, `momentary-bench status`). With this index all three read
/// only index entries, the median in order.
struct M036_IndexResponsesByParticipantKindDelay: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SQLIndex.create(
            "responses_participant_kind_delay", on: "responses", columns: ["participant_id", "kind", "delay_seconds"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("responses_participant_kind_delay", in: database)
    }
}
