import Fluent
import Foundation
@testable import MomentaryServer
import SQLKit
import Testing

/// Statements that change beeps named by id, guarded by their status, must find them by primary
/// key. SQLite has no statistics in a new file, guesses that one status holds about ten beeps and,
/// given a plain `status =`, walks every beep of that status instead (see
/// `BeepStore.statusBesideIDs`). The plan is the same with no rows as with millions, so an empty
/// database shows it. On SQLite whichever database the suite runs on: the planner at fault is its.
@Suite("Beeps named by id are found by primary key")
struct BeepStatusPlanTests {
    @Test("the batch writer takes its beeps by id, not by walking the beeps of a status")
    func batchTakesBeepsByID() async throws {
        try await withSQLiteTestApp { app in
            let sql = app.db.sql
            let beeps = (0..<30).map { index in (id: UUID(), answeredAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index))) }
            let plan = try await sqlitePlan(of: BatchTransaction.takeBeepsStatement(beeps, on: sql), on: app.db)
            #expect(plan.contains { $0.hasPrefix("SEARCH beeps USING") && $0.hasSuffix("(id=?)") }, "\(plan)")
            #expect(!plan.contains { $0.contains("beeps_status_scheduled_at") }, "\(plan)")
        }
    }

    @Test("on PostgreSQL the writer's prepared statement takes its beeps by primary key, with thousands sent",
          .enabled(if: TestDatabase.isPostgres, "the statement is prepared only on PostgreSQL"))
    func preparedTakeFindsBeepsByID() async throws {
        try await withTestApp { app, _ in
            let fixture = try await SchemaFixture.make(on: app.db)
            let sql = app.db.sql
            try await sql.raw("""
                INSERT INTO beeps (id, participant_id, study_id, origin, local_date, sequence, scheduled_at, status, created_at)
                SELECT gen_random_uuid(), \(bind: try fixture.participant.requireID()), \(bind: try fixture.study.requireID()),
                       'random', '2026-11-27', n, now(), 'sent', now()
                FROM generate_series(1, 5000) AS n
                """).run()
            try await sql.raw("ANALYZE beeps").run()
            // The plan kept after a few runs is the generic one, made without the arrays' values.
            let plan = try await app.db.withConnection { db in
                let sql = db.sql
                try await sql.raw("SET plan_cache_mode = force_generic_plan").run()
                try await sql.raw(SQLQueryString("PREPARE take_probe AS \(BatchTransaction.PostgresTakeBeeps.sql)")).run()
                let lines = try await sql.raw("EXPLAIN EXECUTE take_probe('{}', '{}')").all()
                    .map { try $0.decode(column: "QUERY PLAN", as: String.self) }
                try await sql.raw("DEALLOCATE take_probe").run()
                try await sql.raw("RESET plan_cache_mode").run()
                return lines
            }
            #expect(plan.contains { $0.contains("Index Scan using beeps_pkey on beeps") }, "\(plan)")
            #expect(!plan.contains { $0.contains("beeps_status") || $0.contains("Seq Scan on beeps") }, "\(plan)")
        }
    }

    @Test("the dispatcher claims the due beeps it found by id")
    func claimFindsBeepsByID() async throws {
        try await withSQLiteTestApp { app in
            let sql = app.db.sql
            let plan = try await sqlitePlan(of: BeepStore.claimDueStatement(at: Date(), limit: 200, worker: "w", on: sql), on: app.db)
            // The inner query rightly walks (status, scheduled_at) for due beeps; the update then
            // finds each of them by id.
            #expect(plan.contains { $0.hasPrefix("SEARCH beeps USING") && $0.hasSuffix("(id=?)") }, "\(plan)")
        }
    }
}
