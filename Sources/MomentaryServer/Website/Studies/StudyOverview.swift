import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// The figures of a study's first page, all counted by the database: participants by status, what
/// became of the beeps of today and of the last 7 and 28 participant-local days, the daily response rate,
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

    /// The last day of the periods and the chart, in the study's zone.
    let today: LocalDate
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

    static func build(study: Study, on db: any Database, now: Date) async throws -> StudyOverview {
        let studyID = try study.requireID()
        let sql = db.sql
        let statuses = try await sql.raw("SELECT status, COUNT(*) AS n FROM participants WHERE study_id = \(bind: studyID) GROUP BY status")
            .all(decoding: StatusCountRow.self)
        let byStatus = Participant.Status.allCases.map { status in
            Count(name: status.rawValue.capitalized, count: statuses.first { $0.status == status.rawValue }?.n ?? 0)
        }
        // Periods are participant-local days, as beeps are planned, ending today in the study's zone.
        let today = ComplianceReport.today(of: study, now: now)
        let counts = try await StudyTallies.counts(
            studyID: studyID, subject: .beeps, since: today.adding(days: -(ComplianceReport.chartDays - 1)).description, on: sql)
        let periods = [("Today", 1), ("Last 7 days", 7), ("Last \(ComplianceReport.chartDays) days", ComplianceReport.chartDays)]
            .map { name, days in period(name, counts: counts, since: today.adding(days: 1 - days).description) }
        var quietQuery = ParticipantListQuery()
        quietQuery.quietDays = quietDays
        // The beep scheduled last of those sent: beeps go out within a second of their time, and
        // the (study, scheduled_at) index finds it without reading the study's other beeps.
        let lastSent = try await sql.raw("""
            SELECT sent_at AS last FROM beeps
            WHERE study_id = \(bind: studyID) AND scheduled_at <= \(bind: now) AND sent_at IS NOT NULL
            ORDER BY scheduled_at DESC LIMIT 1
            """).first(decoding: LastSentRow.self)?.last
        let failures = try await sql.raw("""
            SELECT COALESCE(delivery_outcome, 'unknown') AS status, COUNT(*) AS n FROM beeps
            WHERE status = 'failed' AND scheduled_at >= \(bind: now.addingTimeInterval(-7 * 86_400)) AND study_id = \(bind: studyID)
            GROUP BY COALESCE(delivery_outcome, 'unknown') ORDER BY n DESC
            """).all(decoding: StatusCountRow.self)
        let withoutChannel = try await sql.raw("""
            SELECT COUNT(*) AS n FROM participants
            WHERE study_id = \(bind: studyID) AND status = 'participating' AND push_channel = 'none'
            """).first(decoding: CountRow.self)?.n ?? 0
        return StudyOverview(
            today: today, participantsByStatus: byStatus, periods: periods,
            days: ComplianceReport.dailyRates(counts, today: today),
            quiet: try await ComplianceReport.matchingCount(studyID: studyID, query: quietQuery, sql: sql, now: now),
            lastSent: lastSent, failures: failures.map { Count(name: $0.status, count: $0.n) },
            withoutChannel: withoutChannel)
    }

    /// Beeps of the local days from `since` on, by what became of them, counted as on the participants page.
    private static func period(_ name: String, counts: [StudyTallies.Count], since: String) -> Period {
        let tally = BeepTally(counts.filter { $0.day >= since }.map { StatusCountRow(status: $0.status, n: $0.n) })
        return Period(
            name: name, sent: tally.sent, answered: tally.answered, ignored: tally.ignored, missed: tally.missed,
            failed: tally.failed, rate: WebFormat.percent(tally.rate))
    }
}

private struct LastSentRow: Decodable {
    let last: Date?
}
