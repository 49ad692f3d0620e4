import Fluent
import Foundation
import Logging
import SQLKit

/// The counts that migration M025's triggers keep: beeps per study, participant-local day and
/// status; responses per study and kind. Reading adds the folded `study_tallies` and the changes
/// not yet folded, so a count is exact at any moment and costs the same at ten beeps or ten million.
enum StudyTallies {
    enum Subject: String {
        case beeps, responses
    }

    struct Count: Decodable, Sendable {
        let day: String
        let status: String
        let n: Int
    }

    /// The study's counts of `subject` by day and status, for days from `since` (`YYYY-MM-DD`) on
    /// when given. Responses have one day, the empty string.
    static func counts(studyID: UUID, subject: Subject, since: String? = nil, on sql: any SQLDatabase) async throws -> [Count] {
        let from: SQLQueryString = since.map { " AND day >= \(bind: $0)" } ?? ""
        let rows: SQLQueryString = "study_id = \(bind: studyID) AND subject = \(bind: subject.rawValue)\(from)"
        return try await sql.raw("""
            SELECT day, status, CAST(SUM(n) AS BIGINT) AS n FROM (
                SELECT day, status, n FROM study_tallies WHERE \(rows)
                UNION ALL SELECT day, status, n FROM study_tally_changes WHERE \(rows)
            ) AS counted GROUP BY day, status HAVING SUM(n) <> 0
            """).all(decoding: Count.self)
    }

    /// The study's counts of `subject` by status, over all days from `since` on.
    static func byStatus(studyID: UUID, subject: Subject, since: String? = nil, on sql: any SQLDatabase) async throws -> [StatusCountRow] {
        let counts = try await counts(studyID: studyID, subject: subject, since: since, on: sql)
        return Dictionary(grouping: counts, by: \.status)
            .map { StatusCountRow(status: $0.key, n: $0.value.reduce(0) { $0 + $1.n }) }
    }

    /// Changes folded in one transaction: a backlog (a study imported at once, a server that was
    /// stopped) is folded in parts, so writers never wait long for SQLite's one write lock.
    static let foldSize = 20_000

    /// Folds the changes written so far into `study_tallies`, `foldSize` at a time, and drops them
    /// with those of studies that no longer exist. Safe beside writers and beside another server
    /// folding at the same time. Returns how many changes were folded.
    @discardableResult
    static func compact(on db: any Database, partSize: Int = foldSize) async throws -> Int {
        var folded = 0
        while true {
            let part = try await foldPart(partSize, on: db)
            folded += part
            if part < partSize || Task.isCancelled { return folded }
        }
    }

    private static func foldPart(_ size: Int, on db: any Database) async throws -> Int {
        let sql = db.sql
        if sql.dialect.name == "postgresql" {
            // One statement: what it deletes is exactly what it adds. Rows another server is
            // folding are skipped, not waited for; the insert is ordered so two folds take the
            // tally rows' locks in the same order and cannot deadlock.
            return try await sql.raw("""
                WITH folded AS (
                    DELETE FROM study_tally_changes WHERE ctid IN (
                        SELECT ctid FROM study_tally_changes LIMIT \(literal: size) FOR UPDATE SKIP LOCKED)
                    RETURNING study_id, subject, day, status, n),
                added AS (
                    INSERT INTO study_tallies (study_id, subject, day, status, n)
                    SELECT study_id, subject, day, status, SUM(n) FROM folded
                    WHERE study_id IN (SELECT id FROM studies)
                    GROUP BY study_id, subject, day, status ORDER BY study_id, subject, day, status
                    ON CONFLICT (study_id, subject, day, status) DO UPDATE SET n = study_tallies.n + EXCLUDED.n
                    RETURNING 1)
                SELECT (SELECT COUNT(*) FROM folded) AS n
                """).first(decoding: CountRow.self)?.n ?? 0
        }
        // SQLite: with the write lock taken first, no one else writes during the transaction, so the `size` smallest rowids, and
        // every rowid between the first and last of them, are a fixed set until it commits.
        return try await db.transaction { db in
            try await db.lockForWriting()
            let sql = db.sql
            let range = try await sql.raw("""
                SELECT MIN(rowid) AS first, MAX(rowid) AS last, COUNT(*) AS n FROM
                    (SELECT rowid FROM study_tally_changes ORDER BY rowid LIMIT \(literal: size)) AS oldest
                """).first(decoding: RowidRange.self)
            guard let range, let first = range.first, let last = range.last, range.n > 0 else { return 0 }
            try await sql.raw("""
                INSERT INTO study_tallies (study_id, subject, day, status, n)
                SELECT study_id, subject, day, status, SUM(n) FROM study_tally_changes
                WHERE rowid BETWEEN \(bind: first) AND \(bind: last) AND study_id IN (SELECT id FROM studies)
                GROUP BY study_id, subject, day, status
                ON CONFLICT (study_id, subject, day, status) DO UPDATE SET n = study_tallies.n + excluded.n
                """).run()
            try await sql.raw("DELETE FROM study_tally_changes WHERE rowid BETWEEN \(bind: first) AND \(bind: last)").run()
            return range.n
        }
    }

    /// `serve`'s fold, every few seconds: readers stay exact without it, but fast only with it.
    static func compactionJob(seconds: Int = 5) -> PeriodicJob {
        PeriodicJob(component: "study-tallies", every: .seconds(seconds)) { db, _, logger in
            do {
                try await compact(on: db)
            } catch {
                logger.warning("Folding study counts failed; they stay exact and the next fold retries: \(String(describing: error))")
            }
        }
    }
}

private struct RowidRange: Decodable {
    let first: Int?
    let last: Int?
    let n: Int
}
