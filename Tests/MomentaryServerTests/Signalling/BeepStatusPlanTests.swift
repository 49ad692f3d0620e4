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
            let sql = try #require(app.db as? any SQLDatabase)
            let beeps = (0..<30).map { index in (id: UUID(), answeredAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(index))) }
            let plan = try await Self.plan(of: ResponseWriter.takeBeepsStatement(beeps, on: sql), on: sql)
            #expect(plan.contains { $0.hasPrefix("SEARCH beeps USING") && $0.hasSuffix("(id=?)") }, "\(plan)")
            #expect(!plan.contains { $0.contains("beeps_status_scheduled_at") }, "\(plan)")
        }
    }

    @Test("the dispatcher claims the due beeps it found by id")
    func claimFindsBeepsByID() async throws {
        try await withSQLiteTestApp { app in
            let sql = try #require(app.db as? any SQLDatabase)
            let plan = try await Self.plan(of: BeepStore.claimDueStatement(at: Date(), limit: 200, worker: "w", on: sql), on: sql)
            // The inner query rightly walks (status, scheduled_at) for due beeps; the update then
            // finds each of them by id.
            #expect(plan.contains { $0.hasPrefix("SEARCH beeps USING") && $0.hasSuffix("(id=?)") }, "\(plan)")
        }
    }

    private static func plan(of statement: SQLQueryString, on sql: any SQLDatabase) async throws -> [String] {
        try await sql.raw("EXPLAIN QUERY PLAN \(statement)").all().map { try $0.decode(column: "detail", as: String.self) }
    }
}
