import Fluent
import SQLKit

/// On PostgreSQL, `participants.last_answered_at` (M026) kept by statement triggers with
/// transition tables instead of a row trigger: the response writer inserts a whole batch of
/// responses in one statement, and the row trigger ran an UPDATE for each of them (10,000 a
/// benchmark run); now a batch runs one, moving each participant's time to the latest of the
/// batch. A deletion recounts each participant once. SQLite keeps M026's row triggers: they run
/// inside the writer's own process and cost little there.
struct M035_BatchLastAnsweredOnPostgres: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "postgresql" else { return }
        let later = """
            UPDATE participants p SET last_answered_at = latest.submitted_at
            FROM (SELECT participant_id, MAX(submitted_at) AS submitted_at FROM new_rows WHERE kind = 'esm' GROUP BY participant_id) AS latest
            WHERE p.id = latest.participant_id AND (p.last_answered_at IS NULL OR p.last_answered_at < latest.submitted_at)
            """
        let recount = """
            UPDATE participants p SET last_answered_at =
                (SELECT MAX(submitted_at) FROM responses r WHERE r.participant_id = p.id AND r.kind = 'esm')
            WHERE p.id IN (SELECT participant_id FROM old_rows WHERE kind = 'esm')
            """
        try await run([
            "DROP TRIGGER responses_last_answered ON responses",
            "DROP FUNCTION responses_last_answered()",
            """
            CREATE FUNCTION responses_last_answered() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN \(later);
              ELSE \(recount);
              END IF;
              RETURN NULL;
            END $$
            """,
            // A trigger with transition tables answers one event only.
            "CREATE TRIGGER responses_last_answered_insert AFTER INSERT ON responses REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION responses_last_answered()",
            "CREATE TRIGGER responses_last_answered_delete AFTER DELETE ON responses REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION responses_last_answered()",
        ], on: sql)
    }

    /// Back to M026's row trigger.
    func revert(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "postgresql" else { return }
        try await run([
            "DROP FUNCTION responses_last_answered() CASCADE",
            """
            CREATE FUNCTION responses_last_answered() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN
                IF NEW.kind = 'esm' THEN
                  UPDATE participants SET last_answered_at = NEW.submitted_at
                  WHERE id = NEW.participant_id AND (last_answered_at IS NULL OR last_answered_at < NEW.submitted_at);
                END IF;
              ELSIF OLD.kind = 'esm' THEN
                UPDATE participants SET last_answered_at =
                  (SELECT MAX(submitted_at) FROM responses r WHERE r.participant_id = OLD.participant_id AND r.kind = 'esm')
                WHERE id = OLD.participant_id;
              END IF;
              RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER responses_last_answered AFTER INSERT OR DELETE ON responses FOR EACH ROW EXECUTE FUNCTION responses_last_answered()",
        ], on: sql)
    }

    private func run(_ statements: [String], on sql: any SQLDatabase) async throws {
        for statement in statements {
            try await sql.raw(SQLQueryString(statement)).run()
        }
    }
}
