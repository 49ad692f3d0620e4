import Fluent
import SQLKit

/// A partial index of test beeps by participant and status: the home screen's response rate leaves
/// a researcher's test beeps out by counting them apart, from this small index, instead of reading
/// every beep row for its origin (the counts read index entries only; see M036). Only test beeps
/// are in it, so planning and answering ordinary beeps never touch it.
struct M041_IndexTestBeeps: AsyncMigration {
    static let name = "beeps_test_participant_status"

    func prepare(on database: any Database) async throws {
        let sql = database.sql
        try await sql.raw("""
            CREATE INDEX \(unsafeRaw: Self.name) ON beeps (participant_id, status) WHERE origin = 'test'
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop(Self.name, in: database)
    }
}
