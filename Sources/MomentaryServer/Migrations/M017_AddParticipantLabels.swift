import Fluent
import Foundation
import SQLKit

/// `participants.label`: a short public label per participant, so researchers can tell the
/// participants of an open study apart (their invitation code read "open" for everyone). Existing
/// participants get their invitation code, or a fresh code; labels are unique across the server.
/// Plain SQL, not the models: a later model field must not break this migration on an old database.
struct M017_AddParticipantLabels: AsyncMigration {
    private struct Row: Decodable {
        let id: UUID
        let code: String?
    }

    func prepare(on database: any Database) async throws {
        try await database.schema("participants").field("label", .string).update()
        let sql = database.sql
        let rows = try await sql.raw("""
            SELECT p.id AS id, i.code AS code FROM participants p LEFT JOIN invitees i ON i.id = p.invitee_id
            """).all(decoding: Row.self)
        var taken = Set(try await sql.raw("SELECT code FROM invitees").all(decodingColumn: "code", as: String.self))
        for row in rows {
            let label = row.code ?? PublicCodes.fresh(avoiding: &taken)
            try await sql.raw("UPDATE participants SET label = \(bind: label) WHERE id = \(bind: row.id)").run()
        }
        try await SQLIndex.create("participants_label", on: "participants", columns: ["label"], unique: true, in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("participants_label", in: database)
        try await database.schema("participants").deleteField("label").update()
    }
}
