import Fluent
import Foundation
import SQLKit

/// The figures of a study's first page, all counted by the database: participants by status, what
/// became of the beeps scheduled today and over the last 7 and 28 days, the daily response rate,
/// who has gone quiet, and whether signalling is healthy.
struct StudyOverview: Sendable {
    struct Period: Encodable, Sendable {
        let name: String
        let sent: Int
        let answered: Int
        let ignored: Int
        let missed: Int
        let failed: Int
        let rate: String
    }

    struct Count: Encodable, Sendable {
        let name: String
        let count: Int
    }

    let participantsByStatus: [Count]
    let periods: [Period]
    let days: [ComplianceReport.Day]
    let quiet: Int
    let lastSent: Date?
    /// Beeps that failed in the last 7 days, by outcome (`rejected`, `unregistered`, `no_channel`, …).
    let failures: [Count]
    /// Participating people whose beeps have no push channel to go through.
    let withoutChannel: Int

    static let quietDays = 3

    static func build(studyID: UUID, on db: any Database, now: Date = Date()) async throws -> StudyOverview {
        let sql = try StudyExport.sql(db)
        let statuses = try await sql.raw("SELECT status, COUNT(*) AS n FROM participants WHERE study_id = \(bind: studyID) GROUP BY status")
            .all(decoding: StatusCountRow.self)
        let byStatus = Participant.Status.allCases.map { status in
            Count(name: status.rawValue.capitalized, count: statuses.first { $0.status == status.rawValue }?.n ?? 0)
        }
        let today = Calendar(identifier: .gregorian).startOfDay(for: now)
        var periods: [Period] = []
        for (name, since) in [("Today (UTC)", today), ("Last 7 days", now.addingTimeInterval(-7 * 86_400)),
                              ("Last 28 days", now.addingTimeInterval(-28 * 86_400))] {
            periods.append(try await period(name, studyID: studyID, since: since, until: now, sql: sql))
        }
        var quietQuery = ParticipantListQuery()
        quietQuery.quietDays = quietDays
        let lastSent = try await sql.raw("SELECT MAX(sent_at) AS last FROM beeps WHERE study_id = \(bind: studyID)")
            .first(decoding: LastSentRow.self)?.last
        let failures = try await sql.raw("""
            SELECT COALESCE(delivery_outcome, 'unknown') AS status, COUNT(*) AS n FROM beeps
            WHERE study_id = \(bind: studyID) AND status = 'failed' AND scheduled_at >= \(bind: now.addingTimeInterval(-7 * 86_400))
            GROUP BY COALESCE(delivery_outcome, 'unknown') ORDER BY n DESC
            """).all(decoding: StatusCountRow.self)
        let withoutChannel = try await sql.raw("""
            SELECT COUNT(*) AS n FROM participants
            WHERE study_id = \(bind: studyID) AND status = 'participating' AND push_channel = 'none'
            """).first(decoding: CountRow.self)?.n ?? 0
        return StudyOverview(
            participantsByStatus: byStatus, periods: periods,
            days: try await ComplianceReport.dailyRates(studyID: studyID, sql: sql, now: now),
            quiet: try await ComplianceReport.matchingCount(studyID: studyID, query: quietQuery, sql: sql, now: now),
            lastSent: lastSent, failures: failures.map { Count(name: $0.status, count: $0.n) },
            withoutChannel: withoutChannel)
    }

    /// Beeps scheduled in [since, until), by what became of them, counted as on the participants page.
    private static func period(_ name: String, studyID: UUID, since: Date, until: Date, sql: any SQLDatabase) async throws -> Period {
        let counts = try await sql.raw("""
            SELECT status, COUNT(*) AS n FROM beeps
            WHERE study_id = \(bind: studyID) AND scheduled_at >= \(bind: since) AND scheduled_at < \(bind: until)
            GROUP BY status
            """).all(decoding: StatusCountRow.self)
        let tally = BeepTally(counts)
        return Period(
            name: name, sent: tally.sent, answered: tally.answered, ignored: tally.ignored, missed: tally.missed,
            failed: tally.failed, rate: WebFormat.percent(tally.rate))
    }
}

private struct LastSentRow: Decodable {
    let last: Date?
}
