import Foundation
import MomentaryCore
import SQLKit

/// The answers to a study's feedback slider, read three ways for the public statistics: summed per
/// participant and place (in SQL), the newest first a page at a time, and those of the past week.
/// Places are a tenth of a degree (about 10 km), enough to tell countries apart.
struct FeedbackRows {
    let studyID: UUID
    let questionID: String
    let sql: any SQLDatabase

    /// A place as latitude and longitude in tenths of a degree; nil without a location.
    struct Place: Hashable {
        let latitude: Double
        let longitude: Double
    }

    struct Group: Decodable {
        let participantId: UUID
        let latitude10: Double?
        let longitude10: Double?
        let answers: Int
        let total: Double

        var place: Place? { FeedbackRows.place(latitude10, longitude10) }

        enum CodingKeys: String, CodingKey {
            case participantId = "participant_id", latitude10 = "latitude10", longitude10 = "longitude10", answers, total
        }
    }

    struct Row: Decodable {
        let participantId: UUID
        let latitude10: Double?
        let longitude10: Double?
        let value: Double

        var place: Place? { FeedbackRows.place(latitude10, longitude10) }

        enum CodingKeys: String, CodingKey {
            case participantId = "participant_id", latitude10 = "latitude10", longitude10 = "longitude10", value
        }
    }

    struct Timed: Decodable {
        let submittedAt: Date
        let value: Double

        enum CodingKeys: String, CodingKey { case submittedAt = "submitted_at", value }
    }

    static func place(_ latitude10: Double?, _ longitude10: Double?) -> Place? {
        guard let latitude10, let longitude10 else { return nil }
        return Place(latitude: latitude10 / 10, longitude: longitude10 / 10)
    }

    /// Slider answers only: their values are always numbers, so the cast cannot fail on PostgreSQL.
    private var answered: SQLQueryString {
        """
        FROM responses r
        JOIN answers a ON a.response_id = r.id AND a.question_id = \(bind: questionID) AND a.status = 'answered'
            AND a.question_type = 'slider'
        LEFT JOIN response_contexts c ON c.response_id = r.id
        WHERE r.study_id = \(bind: studyID) AND r.kind = \(bind: "esm")
        """
    }

    func groups() async throws -> [Group] {
        try await sql.raw("""
            SELECT r.participant_id, ROUND(c.latitude * 10) AS latitude10, ROUND(c.longitude * 10) AS longitude10,
                COUNT(*) AS answers, SUM(CAST(a.value AS DOUBLE PRECISION)) AS total
            \(answered)
            GROUP BY r.participant_id, ROUND(c.latitude * 10), ROUND(c.longitude * 10)
            """).all(decoding: Group.self)
    }

    func newest(offset: Int, limit: Int) async throws -> [Row] {
        try await sql.raw("""
            SELECT r.participant_id, ROUND(c.latitude * 10) AS latitude10, ROUND(c.longitude * 10) AS longitude10,
                CAST(a.value AS DOUBLE PRECISION) AS value
            \(answered)
            ORDER BY r.submitted_at DESC, r.id DESC LIMIT \(literal: limit) OFFSET \(literal: offset)
            """).all(decoding: Row.self)
    }

    func since(_ start: Date) async throws -> [Timed] {
        try await sql.raw("""
            SELECT r.submitted_at, CAST(a.value AS DOUBLE PRECISION) AS value
            \(answered) AND r.submitted_at >= \(bind: start)
            """).all(decoding: Timed.self)
    }
}

/// Each answer's region: from its place when it has one, else from its participant's time zone;
/// each place and participant looked up once.
struct RegionResolver {
    private let zones: [UUID: String]
    private var cache: [FeedbackRows.Place: String] = [:]
    private let lookup = RegionLookup.shared

    init(studyID: UUID, sql: any SQLDatabase) async throws {
        struct Row: Decodable {
            let id: UUID
            let timezone: String
        }
        let rows = try await sql.raw("SELECT id, timezone FROM participants WHERE study_id = \(bind: studyID)").all(decoding: Row.self)
        zones = Dictionary(rows.map { ($0.id, $0.timezone) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func region(_ place: FeedbackRows.Place?, participant: UUID) -> String {
        guard let place else { return lookup.region(latitude: nil, longitude: nil, timeZone: zones[participant]) }
        if let known = cache[place] { return known }
        let found = lookup.region(latitude: place.latitude, longitude: place.longitude, timeZone: nil)
        cache[place] = found
        return found
    }
}
