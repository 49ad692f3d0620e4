import Fluent
import SQLKit

/// `beeps.timezone` and `responses.timezone`: the zone a beep was planned in and the zone the
/// participant was in when answering. Exports and pages showed every row in the participant's
/// current zone, so a move rewrote the local time of every earlier answer.
///
/// Rows from before this migration get the participant's zone at migration time, the only
/// record there is. New rows always carry their own; readers still fall back on the participant's
/// zone for a NULL, which a row can only have if written by a server older than this migration.
struct M037_AddMomentZones: AsyncMigration {
    func prepare(on database: any Database) async throws {
        for table in ["beeps", "responses"] {
            try await database.schema(table).field("timezone", .string).update()
        }
        try await Self.backfill(on: database)
    }

    /// Gives each row without a zone its participant's.
    static func backfill(on database: any Database) async throws {
        let sql = database.sql
        for table in ["beeps", "responses"] {
            try await sql.raw("""
                UPDATE \(unsafeRaw: table) SET timezone =
                    (SELECT p.timezone FROM participants AS p WHERE p.id = \(unsafeRaw: table).participant_id)
                WHERE timezone IS NULL
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        for table in ["beeps", "responses"] {
            try await database.schema(table).deleteField("timezone").update()
        }
    }
}
