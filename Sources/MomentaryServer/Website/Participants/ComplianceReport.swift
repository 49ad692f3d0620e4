import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// Which participants the participants page lists: a page of those matching a label search, a
/// status and "no answer in N days", in registration order.
struct ParticipantListQuery: Sendable, Equatable {
    static let pageSize = 50

    /// Part of a label, any case; or a whole participant id.
    var search: String?
    var status: Participant.Status?
    /// Only participating people with no experience-sampling answer in this many days.
    var quietDays: Int?
    /// From 1.
    var page = 1

    /// The search as it can match a label: letters and digits only, upper case (labels are
    /// unambiguous codes such as BCD23), or nil when nothing is left.
    var labelFragment: String? {
        let kept = (search ?? "").uppercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }
        return kept.isEmpty ? nil : String(String.UnicodeScalarView(kept))
    }
}

/// Compliance for one page of a study's participants (beeps delivered, answered, ignored and
/// missed, the response rate, median delay, last contact and push health), with the study's
/// totals and the daily response rate of the last four weeks. Everything is counted by the
/// database (grouped counts, indexed look-ups per listed participant), so the page costs the same
/// for a study of a hundred participants or of a hundred thousand.
struct ComplianceReport: Sendable {
    struct Row: Sendable {
        let participantID: UUID
        let code: String
        let status: String
        /// Erased by researchers, with an anonymous history kept: nothing more can be done with them.
        let erased: Bool
        let sent: Int
        let answered: Int
        let ignored: Int
        let missed: Int
        let responseRate: Double?
        let medianDelaySeconds: Double?
        let lastSeenAt: Date?
        let pushChannel: String
        let lastPushOutcome: String?
        let unregistered: Bool
    }

    struct Day: Sendable {
        let date: String
        let delivered: Int
        let answered: Int
        var rate: Double? { delivered > 0 ? Double(answered) / Double(delivered) : nil }
    }

    /// The listed page.
    let rows: [Row]
    /// Participants matching the query, on all pages.
    let matching: Int
    /// The page listed (the one asked for, or the last when it asked beyond it) and its neighbours.
    let window: PageWindow
    /// Participants of the study.
    let participantCount: Int
    let totalSent: Int
    let totalAnswered: Int
    let days: [Day]

    var totalRate: Double? { totalSent > 0 ? Double(totalAnswered) / Double(totalSent) : nil }

    static let chartDays = 28
    private static let delivered = ParticipantStatusService.deliveredStatuses.map(\.rawValue)

    /// `link` gives the address of another page of the same list.
    static func build(
        study: Study, query: ParticipantListQuery, on db: any Database, now: Date, link: (Int) -> String
    ) async throws -> ComplianceReport {
        let studyID = try study.requireID()
        let sql = db.sql
        let filter = filterSQL(query, now: now)
        let matching = try await matchingCount(studyID: studyID, query: query, sql: sql, now: now)
        let everyone = ParticipantListQuery(page: query.page)
        let participantCount = query == everyone
            ? matching : try await matchingCount(studyID: studyID, query: everyone, sql: sql, now: now)

        let window = PageWindow(requested: query.page, matching: matching, pageSize: ParticipantListQuery.pageSize, link: link)
        let listed = try await sql.raw("""
            SELECT p.id, p.label, p.status, p.push_channel, p.push_health, p.last_seen_at, p.erased_at,
                (SELECT b.delivery_outcome FROM beeps b WHERE b.participant_id = p.id AND b.delivery_outcome IS NOT NULL
                 ORDER BY b.scheduled_at DESC LIMIT 1) AS last_outcome
            FROM (SELECT p.id FROM participants p WHERE p.study_id = \(bind: studyID)\(filter)
                  ORDER BY p.registered_at, p.id LIMIT \(literal: ParticipantListQuery.pageSize) OFFSET \(literal: window.offset)) AS listed
            JOIN participants p ON p.id = listed.id
            ORDER BY p.registered_at, p.id
            """).all(decoding: ParticipantRow.self)
        let ids = listed.map(\.id)
        var counts: [UUID: [String: Int]] = [:]
        var delays: [UUID: [Double]] = [:]
        if !ids.isEmpty {
            for row in try await sql.raw("""
                SELECT participant_id, status, COUNT(*) AS n FROM beeps
                WHERE participant_id IN (\(binds: ids)) AND origin <> \(bind: Beep.Origin.test.rawValue)
                GROUP BY participant_id, status
                """).all(decoding: BeepCountRow.self) {
                counts[row.participantId, default: [:]][row.status] = row.n
            }
            for row in try await sql.raw("""
                SELECT r.participant_id, r.delay_seconds FROM responses r JOIN beeps b ON b.id = r.beep_id
                WHERE r.participant_id IN (\(binds: ids)) AND r.kind = 'esm' AND r.delay_seconds IS NOT NULL
                AND b.origin <> \(bind: Beep.Origin.test.rawValue)
                """).all(decoding: DelayRow.self) {
                delays[row.participantId, default: []].append(row.delaySeconds)
            }
        }
        let rows = listed.map { participant in
            let tally = BeepTally(counts[participant.id] ?? [:])
            return Row(
                participantID: participant.id, code: participant.label ?? "—", status: participant.status,
                erased: participant.erasedAt != nil, sent: tally.sent, answered: tally.answered, ignored: tally.ignored, missed: tally.missed,
                responseRate: tally.rate,
                medianDelaySeconds: ParticipantStatusService.median(delays[participant.id] ?? []),
                lastSeenAt: participant.lastSeenAt, pushChannel: participant.pushChannel,
                lastPushOutcome: participant.lastOutcome, unregistered: participant.pushHealth == "unregistered")
        }

        let today = today(of: study, now: now)
        let totals = BeepTally(try await StudyTallies.byStatus(studyID: studyID, subject: .beeps, on: sql))
        let recent = try await StudyTallies.counts(
            studyID: studyID, subject: .beeps, since: today.adding(days: -(chartDays - 1)).description, on: sql)
        let days = dailyRates(recent, today: today)
        return ComplianceReport(
            rows: rows, matching: matching, window: window, participantCount: participantCount,
            totalSent: totals.sent, totalAnswered: totals.answered, days: days)
    }

    /// How many of the study's participants the query matches (on all pages).
    static func matchingCount(studyID: UUID, query: ParticipantListQuery, sql: any SQLDatabase, now: Date) async throws -> Int {
        let filter = filterSQL(query, now: now)
        return try await sql.raw("SELECT COUNT(*) AS n FROM participants p WHERE p.study_id = \(bind: studyID)\(filter)")
            .first(decoding: CountRow.self)?.n ?? 0
    }

    /// Today's date in the study's zone: the last day of the chart and of the overview's periods.
    static func today(of study: Study, now: Date) -> LocalDate {
        WallClock.localDate(of: now, in: TimeZone(identifier: study.defaultTimeZone) ?? .gmt)
    }

    /// Delivered and answered beeps per participant-local day, for the `chartDays` days ending
    /// `today`, from the study's beep counts by day.
    static func dailyRates(_ counts: [StudyTallies.Count], today: LocalDate) -> [Day] {
        let first = today.adding(days: -(chartDays - 1)).description, last = today.description
        let delivered = Set(Self.delivered)
        let shown = counts.filter { $0.day >= first && $0.day <= last && delivered.contains($0.status) }
        return Dictionary(grouping: shown, by: \.day).map { date, counts in
            Day(date: date, delivered: counts.reduce(0) { $0 + $1.n },
                answered: counts.first { $0.status == Beep.Status.answered.rawValue }?.n ?? 0)
        }.sorted { $0.date < $1.date }
    }

    /// The query's conditions on participants `p`, each starting with AND.
    static func filterSQL(_ query: ParticipantListQuery, now: Date) -> SQLQueryString {
        var sql: SQLQueryString = ""
        if let search = query.search?.trimmingCharacters(in: .whitespaces), let id = UUID(uuidString: search) {
            sql += " AND p.id = \(bind: id)"
        } else if let fragment = query.labelFragment {
            sql += " AND p.label LIKE \(bind: "%" + fragment + "%")"
        }
        if let status = query.status {
            sql += " AND p.status = \(bind: status.rawValue)"
        }
        if let days = query.quietDays {
            let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
            // last_answered_at is kept by the database (migration M026).
            sql += " AND p.status = 'participating' AND (p.last_answered_at IS NULL OR p.last_answered_at < \(bind: cutoff))"
        }
        return sql
    }
}

struct CountRow: Decodable {
    let n: Int
}

private struct ParticipantRow: Decodable {
    let id: UUID
    let label: String?
    let status: String
    let pushChannel: String
    let pushHealth: String?
    let lastSeenAt: Date?
    let lastOutcome: String?
    let erasedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, label, status, pushChannel = "push_channel", pushHealth = "push_health"
        case lastSeenAt = "last_seen_at", lastOutcome = "last_outcome", erasedAt = "erased_at"
    }
}

private struct BeepCountRow: Decodable {
    let participantId: UUID
    let status: String
    let n: Int

    enum CodingKeys: String, CodingKey {
        case participantId = "participant_id", status, n
    }
}

struct StatusCountRow: Decodable {
    let status: String
    let n: Int
}

private struct DelayRow: Decodable {
    let participantId: UUID
    let delaySeconds: Double

    enum CodingKeys: String, CodingKey {
        case participantId = "participant_id", delaySeconds = "delay_seconds"
    }
}
