import Fluent
import SQLKit

/// `participants.last_answered_at`: when the participant last submitted an experience-sampling
/// answer, kept by triggers on `responses`, so "no answer in N days" (the overview's quiet count
/// and the participants page's filter) is a range of an index instead of a look-up per participant.
/// Raw SQL reads it; the `Participant` model leaves it alone.
struct M026_AddParticipantLastAnsweredAt: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("participants").field("last_answered_at", .datetime).update()
        let sql = database.sql
        try await sql.raw("""
            UPDATE participants SET last_answered_at =
                (SELECT MAX(submitted_at) FROM responses r WHERE r.participant_id = participants.id AND r.kind = 'esm')
            """).run()
        try await SQLIndex.create(
            "participants_study_status_answered", on: "participants", columns: ["study_id", "status", "last_answered_at"], in: database)
        // An answer moves the time forward; a deleted one (erasure) makes it the latest left.
        let later = "UPDATE participants SET last_answered_at = NEW.submitted_at WHERE id = NEW.participant_id AND (last_answered_at IS NULL OR last_answered_at < NEW.submitted_at)"
        let recount = "UPDATE participants SET last_answered_at = (SELECT MAX(submitted_at) FROM responses r WHERE r.participant_id = OLD.participant_id AND r.kind = 'esm') WHERE id = OLD.participant_id"
        let statements = sql.dialect.name == "postgresql" ? [
            """
            CREATE FUNCTION responses_last_answered() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN
                IF NEW.kind = 'esm' THEN \(later); END IF;
              ELSIF OLD.kind = 'esm' THEN \(recount);
              END IF;
              RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER responses_last_answered AFTER INSERT OR DELETE ON responses FOR EACH ROW EXECUTE FUNCTION responses_last_answered()",
        ] : [
            "CREATE TRIGGER responses_last_answered_insert AFTER INSERT ON responses WHEN NEW.kind = 'esm' BEGIN \(later); END",
            "CREATE TRIGGER responses_last_answered_delete AFTER DELETE ON responses WHEN OLD.kind = 'esm' BEGIN \(recount); END",
        ]
        for statement in statements {
            try await sql.raw(SQLQueryString(statement)).run()
        }
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        let drops = sql.dialect.name == "postgresql"
            ? ["DROP FUNCTION IF EXISTS responses_last_answered() CASCADE"]
            : ["DROP TRIGGER IF EXISTS responses_last_answered_insert", "DROP TRIGGER IF EXISTS responses_last_answered_delete"]
        for statement in drops {
            try await sql.raw(SQLQueryString(statement)).run()
        }
        try await SQLIndex.drop("participants_study_status_answered", in: database)
        try await database.schema("participants").deleteField("last_answered_at").update()
    }
}
