import Fluent
import Foundation
import MomentaryServer
import SQLKit
import Vapor

/// The cost of one public-statistics refresh (`PublicStatisticsService.refreshAll`, as `serve` runs
/// it every ten minutes) for a study of `responses` responses seeded as for the export benchmark
/// (1,000 participants, one response a minute up to now, each located). Beside it, from the same
/// run: `sqlite3` reading the rows the refresh reads (the feedback answers joined to their
/// responses, contexts and participants) from the same file, the floor any refresh pays.
enum StatisticsBenchmark {
    static func run(responses: Int, runs: Int = 5) async throws {
        try await BenchmarkApp.run("statistics") { app, directory in
            let slug = try await ExportSeeder(answers: responses * ExportSeeder.questions.count).seed(app.db)
            let sql = app.db.sql
            try await sql.raw("UPDATE studies SET public_statistics_enabled = \(bind: true) WHERE slug = \(bind: slug)").run()
            var refreshes: [Double] = []
            for _ in 0..<runs {
                let started = ContinuousClock.now
                _ = await PublicStatisticsService.refreshAll(on: app.db, now: Date(), logger: app.logger)
                refreshes.append(seconds(since: started))
            }
            let floor = try sqliteFloor(database: directory.appendingPathComponent(Configuration.sqliteFileName).path, runs: runs)
            let median = refreshes.sorted()[runs / 2]
            let fields: [(String, String)] = [
                ("benchmark", "\"statistics-refresh\""),
                ("responses", String(responses)),
                ("refresh_seconds_median", String(format: "%.3f", median)),
                ("refresh_seconds_all", "[" + refreshes.map { String(format: "%.3f", $0) }.joined(separator: ",") + "]"),
                ("sqlite3_read_seconds_median", String(format: "%.3f", floor)),
                ("ratio_to_sqlite3", String(format: "%.2f", median / floor)),
                ("target_seconds", "1.0"),
            ]
            printResult(fields)
        }
    }

    /// `sqlite3` running the refresh's main read (every feedback answer with its place and zone).
    private static func sqliteFloor(database: String, runs: Int) throws -> Double {
        let query = """
            SELECT r.submitted_at, a.value, c.latitude, c.longitude, p.timezone FROM responses r
            JOIN answers a ON a.response_id = r.id JOIN participants p ON p.id = r.participant_id
            LEFT JOIN response_contexts c ON c.response_id = r.id
            WHERE r.kind = 'esm' AND a.question_id = 'happy' AND a.status = 'answered' ORDER BY r.submitted_at DESC;
            """
        var times: [Double] = []
        for _ in 0..<runs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [database, query]
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            let started = ContinuousClock.now
            try process.run()
            process.waitUntilExit()
            times.append(seconds(since: started))
        }
        return times.sorted()[runs / 2]
    }
}
