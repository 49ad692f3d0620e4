import Fluent
import SQLKit

/// A researcher's test beep checks delivery and samples nothing, so it is not study data: the beep
/// tallies behind the website's response rates and compliance figures now leave test beeps out. The
/// triggers of M025 are replaced by ones that skip `origin = 'test'` (a beep turned into a test
/// beep, or back, moves between counted and not), and the test beeps counted so far are taken off.
struct M046_TalliesLeaveTestBeepsOut: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        let postgres = sql.dialect.name == "postgresql"
        for statement in postgres ? Self.postgres : Self.sqlite {
            try await sql.raw(SQLQueryString(statement)).run()
        }
        try await sql.raw("""
            INSERT INTO study_tally_changes (study_id, subject, day, status, n)
            SELECT study_id, 'beeps', local_date, status, -COUNT(*) FROM beeps WHERE origin = 'test'
            GROUP BY study_id, local_date, status
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await sql.raw("""
            INSERT INTO study_tally_changes (study_id, subject, day, status, n)
            SELECT study_id, 'beeps', local_date, status, COUNT(*) FROM beeps WHERE origin = 'test'
            GROUP BY study_id, local_date, status
            """).run()
        let postgres = sql.dialect.name == "postgresql"
        for statement in postgres ? Self.postgresCountingAll : Self.sqliteCountingAll {
            try await sql.raw(SQLQueryString(statement)).run()
        }
    }

    private static let changes = "INSERT INTO study_tally_changes (study_id, subject, day, status, n)"

    private static func sqliteTriggers(counted: (String) -> String) -> [String] {
        ["beeps_tally_insert", "beeps_tally_delete", "beeps_tally_update"].map { "DROP TRIGGER IF EXISTS \($0)" } + [
            "CREATE TRIGGER beeps_tally_insert AFTER INSERT ON beeps WHEN \(counted("NEW")) BEGIN \(changes) VALUES (NEW.study_id, 'beeps', NEW.local_date, NEW.status, 1); END",
            "CREATE TRIGGER beeps_tally_delete AFTER DELETE ON beeps WHEN \(counted("OLD")) BEGIN \(changes) VALUES (OLD.study_id, 'beeps', OLD.local_date, OLD.status, -1); END",
            """
            CREATE TRIGGER beeps_tally_update AFTER UPDATE ON beeps
            WHEN OLD.study_id IS NOT NEW.study_id OR OLD.local_date IS NOT NEW.local_date OR OLD.status IS NOT NEW.status OR OLD.origin IS NOT NEW.origin
            BEGIN
            \(changes) SELECT OLD.study_id, 'beeps', OLD.local_date, OLD.status, -1 WHERE \(counted("OLD"));
            \(changes) SELECT NEW.study_id, 'beeps', NEW.local_date, NEW.status, 1 WHERE \(counted("NEW"));
            END
            """,
        ]
    }

    static let sqlite = sqliteTriggers { "\($0).origin IS NOT 'test'" }
    static let sqliteCountingAll = sqliteTriggers { _ in "1" }

    private static func postgresFunction(filter: String) -> [String] {
        let counted = { (rows: String, sign: String) in
            "SELECT study_id, local_date AS day, status, \(sign) AS n FROM \(rows)\(filter)"
        }
        let append = { (rows: String) in
            """
            \(changes)
            SELECT study_id, 'beeps', day, status, SUM(n) FROM (\(rows)) AS changed
            GROUP BY study_id, day, status HAVING SUM(n) <> 0;
            """
        }
        return [
            """
            CREATE OR REPLACE FUNCTION beeps_tally() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP = 'INSERT' THEN \(append(counted("new_rows", "1")))
              ELSIF TG_OP = 'DELETE' THEN \(append(counted("old_rows", "-1")))
              ELSE \(append(counted("new_rows", "1") + " UNION ALL " + counted("old_rows", "-1")))
              END IF;
              RETURN NULL;
            END $$
            """,
        ]
    }

    static let postgres = postgresFunction(filter: " WHERE origin IS DISTINCT FROM 'test'")
    static let postgresCountingAll = postgresFunction(filter: "")
}
