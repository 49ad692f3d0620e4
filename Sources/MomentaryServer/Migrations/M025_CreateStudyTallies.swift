import Fluent
import SQLKit

/// Counts the website reads instead of aggregating millions of beeps per page: beeps per study,
/// participant-local day and status, and responses per study and kind.
///
/// Triggers on `beeps` and `responses` append each change as a +1/−1 row to
/// `study_tally_changes`, so no writer ever waits for another on a shared counter row (an answer
/// on PostgreSQL would otherwise lock its study's row until commit). `StudyTallies.compact` folds
/// the changes into `study_tallies` every few seconds; readers add both tables, so a count is
/// exact whether or not the fold has run. The triggers are the one place the counts are kept:
/// every insert, status change, cascade and import is counted without the code that made it
/// knowing.
struct M025_CreateStudyTallies: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("study_tallies")
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("subject", .string, .required)
            .field("day", .string, .required)
            .field("status", .string, .required)
            .field("n", .int64, .required)
            .unique(on: "study_id", "subject", "day", "status")
            .create()
        // No foreign key: deleting a study deletes its beeps, whose triggers still write here.
        // The fold drops changes of studies that no longer exist.
        try await database.schema("study_tally_changes")
            .field("study_id", .uuid, .required)
            .field("subject", .string, .required)
            .field("day", .string, .required)
            .field("status", .string, .required)
            .field("n", .int64, .required)
            .create()
        try await SQLIndex.create(
            "study_tally_changes_study", on: "study_tally_changes", columns: ["study_id", "subject", "day"], in: database)

        let sql = database.sql
        for statement in sql.dialect.name == "postgresql" ? Self.postgresTriggers : Self.sqliteTriggers {
            try await sql.raw(SQLQueryString(statement)).run()
        }
        // What exists already, counted once.
        try await sql.raw("""
            INSERT INTO study_tallies (study_id, subject, day, status, n)
            SELECT study_id, 'beeps', local_date, status, COUNT(*) FROM beeps GROUP BY study_id, local_date, status
            """).run()
        try await sql.raw("""
            INSERT INTO study_tallies (study_id, subject, day, status, n)
            SELECT study_id, 'responses', '', kind, COUNT(*) FROM responses GROUP BY study_id, kind
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        let drops = sql.dialect.name == "postgresql"
            ? ["DROP FUNCTION IF EXISTS beeps_tally() CASCADE", "DROP FUNCTION IF EXISTS responses_tally() CASCADE"]
            : ["beeps_tally_insert", "beeps_tally_delete", "beeps_tally_update",
               "responses_tally_insert", "responses_tally_delete", "responses_tally_update"].map { "DROP TRIGGER IF EXISTS \($0)" }
        for statement in drops {
            try await sql.raw(SQLQueryString(statement)).run()
        }
        try await database.schema("study_tally_changes").delete()
        try await database.schema("study_tallies").delete()
    }

    /// What each subject counts: its day and status columns.
    private static let subjects = [("beeps", "local_date", "status"), ("responses", "''", "kind")]

    /// Row triggers: SQLite runs them in the writing statement, which holds the only write lock.
    private static var sqliteTriggers: [String] {
        subjects.flatMap { table, day, status -> [String] in
            let columns = "INSERT INTO study_tally_changes (study_id, subject, day, status, n) VALUES"
            let dayOf = { (row: String) in day == "''" ? "''" : "\(row).\(day)" }
            return [
                "CREATE TRIGGER \(table)_tally_insert AFTER INSERT ON \(table) BEGIN \(columns) (NEW.study_id, '\(table)', \(dayOf("NEW")), NEW.\(status), 1); END",
                "CREATE TRIGGER \(table)_tally_delete AFTER DELETE ON \(table) BEGIN \(columns) (OLD.study_id, '\(table)', \(dayOf("OLD")), OLD.\(status), -1); END",
                """
                CREATE TRIGGER \(table)_tally_update AFTER UPDATE ON \(table)
                WHEN OLD.study_id IS NOT NEW.study_id OR \(dayOf("OLD")) IS NOT \(dayOf("NEW")) OR OLD.\(status) IS NOT NEW.\(status)
                BEGIN \(columns) (OLD.study_id, '\(table)', \(dayOf("OLD")), OLD.\(status), -1), (NEW.study_id, '\(table)', \(dayOf("NEW")), NEW.\(status), 1); END
                """,
            ]
        }
    }

    /// Statement triggers with transition tables: a statement that plans or updates thousands of
    /// beeps appends one grouped row per day and status, not one per beep.
    private static var postgresTriggers: [String] {
        subjects.flatMap { table, day, status -> [String] in
            let counted = { (rows: String, sign: String) in
                "SELECT study_id, \(day) AS day, \(status) AS status, \(sign) AS n FROM \(rows)"
            }
            let append = """
                INSERT INTO study_tally_changes (study_id, subject, day, status, n)
                SELECT study_id, '\(table)', day, status, SUM(n) FROM (%@) AS changed
                GROUP BY study_id, day, status HAVING SUM(n) <> 0;
                """
            let insert = append.replacingOccurrences(of: "%@", with: counted("new_rows", "1"))
            let delete = append.replacingOccurrences(of: "%@", with: counted("old_rows", "-1"))
            let update = append.replacingOccurrences(
                of: "%@", with: counted("new_rows", "1") + " UNION ALL " + counted("old_rows", "-1"))
            return [
                """
                CREATE FUNCTION \(table)_tally() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF TG_OP = 'INSERT' THEN \(insert)
                  ELSIF TG_OP = 'DELETE' THEN \(delete)
                  ELSE \(update)
                  END IF;
                  RETURN NULL;
                END $$
                """,
                "CREATE TRIGGER \(table)_tally_insert AFTER INSERT ON \(table) REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION \(table)_tally()",
                "CREATE TRIGGER \(table)_tally_delete AFTER DELETE ON \(table) REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION \(table)_tally()",
                "CREATE TRIGGER \(table)_tally_update AFTER UPDATE ON \(table) REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION \(table)_tally()",
            ]
        }
    }
}
