import Fluent

/// `signalling_workers`: when each dispatcher was last seen working. A beep left `sending` by a
/// worker not seen for `SignalDispatcherOptions.workerTimeout` was caught by a crash between claim
/// and record: another worker (or the same one restarted) takes it over and sends it again, with
/// the beep's identity, so a push that did go out is replaced on the phone, not doubled.
struct M040_CreateSignallingWorkers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("signalling_workers")
            .field("worker_id", .string, .required)
            .field("seen_at", .datetime, .required)
            .unique(on: "worker_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("signalling_workers").delete()
    }
}
