import Fluent
import Foundation
import SQLKit

/// The alerts a study has raised, newest first, for its overview and its Alerts page.
enum AlertEvents {
    struct Row: Encodable, Sendable {
        let when: String
        let summary: String
        let delivery: String
    }

    static func latest(of study: Study, limit: Int, on db: any Database) async throws -> [Row] {
        try await db.sql.raw("""
            SELECT summary, delivery, created_at FROM alert_events WHERE study_id = \(bind: try study.requireID())
            ORDER BY created_at DESC LIMIT \(literal: limit)
            """).all().map { row in
            Row(when: WebFormat.studyDateTime(try row.decode(column: "created_at", as: Date.self), in: study.zone),
                summary: try row.decode(column: "summary", as: String.self), delivery: try row.decode(column: "delivery", as: String.self))
        }
    }
}
