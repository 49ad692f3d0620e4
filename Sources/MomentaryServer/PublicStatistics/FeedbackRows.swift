import Foundation
import MomentaryCore
import SQLKit

/// The values of a study's feedback subject (a slider's answers, or a score stored with each
/// response), read for the public statistics: summed per participant and place (in SQL), the
/// newest first a page at a time, those of the past week, and the photos of high ones. Places are
/// a tenth of a degree (about 10 km), enough to tell countries apart.
struct FeedbackRows {
    let studyID: UUID
    let subject: FeedbackSubject
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

    struct Photo: Decodable {
        let id: UUID
        let submittedAt: Date
        let value: Double
        let latitude: Double
        let longitude: Double

        enum CodingKeys: String, CodingKey {
            case id, submittedAt = "submitted_at", value, latitude, longitude
        }
    }

    /// The newest public photos with a location from responses whose value is at least `minimum`.
    func photos(minimum: Double, limit: Int) async throws -> [Photo] {
        try await sql.raw("""
            SELECT b.id, r.submitted_at, \(value) AS value, c.latitude, c.longitude
            \(answered(joining: "JOIN blobs b ON b.response_id = r.id AND b.kind = 'photo' AND b.is_public = \(bind: true)"))
                AND \(value) >= \(bind: minimum) AND c.latitude IS NOT NULL AND c.longitude IS NOT NULL
            ORDER BY r.submitted_at DESC, b.id LIMIT \(literal: limit)
            """).all(decoding: Photo.self)
    }

    static func place(_ latitude10: Double?, _ longitude10: Double?) -> Place? {
        guard let latitude10, let longitude10 else { return nil }
        return Place(latitude: latitude10 / 10, longitude: longitude10 / 10)
    }

    /// The subject's value as a number, or NULL where the response has none.
    private var value: SQLQueryString {
        guard subject.score != nil else { return "CAST(a.value AS DOUBLE PRECISION)" }
        // `responses.scores` is JSON text whose values are numbers or null (M059).
        if sql.dialect.name == "postgresql" {
            return "CAST(CAST(r.scores AS JSONB) ->> CAST(\(bind: subject.id) AS TEXT) AS DOUBLE PRECISION)"
        }
        return "CAST(json_extract(r.scores, \(bind: "$.\"" + subject.id + "\"")) AS DOUBLE PRECISION)"
    }

    /// The responses with a value: for a slider, its answers only, whose values are always
    /// numbers, so the cast cannot fail on PostgreSQL. `joining` adds tables joined to `r`.
    private func answered(joining extra: SQLQueryString = "") -> SQLQueryString {
        let slider: SQLQueryString = subject.score != nil ? "" : """
            JOIN answers a ON a.response_id = r.id AND a.question_id = \(bind: subject.id) AND a.status = 'answered'
                AND a.question_type = 'slider'
            """
        let scored: SQLQueryString = subject.score != nil ? "AND \(value) IS NOT NULL" : ""
        return """
            FROM responses r \(slider) \(extra)
            LEFT JOIN response_contexts c ON c.response_id = r.id
            WHERE r.study_id = \(bind: studyID) AND r.kind = \(bind: "esm") \(scored)
            """
    }

    func groups() async throws -> [Group] {
        try await sql.raw("""
            SELECT r.participant_id, ROUND(c.latitude * 10) AS latitude10, ROUND(c.longitude * 10) AS longitude10,
                COUNT(*) AS answers, SUM(\(value)) AS total
            \(answered())
            GROUP BY r.participant_id, ROUND(c.latitude * 10), ROUND(c.longitude * 10)
            """).all(decoding: Group.self)
    }

    func newest(offset: Int, limit: Int) async throws -> [Row] {
        try await sql.raw("""
            SELECT r.participant_id, ROUND(c.latitude * 10) AS latitude10, ROUND(c.longitude * 10) AS longitude10,
                \(value) AS value
            \(answered())
            ORDER BY r.submitted_at DESC, r.id DESC LIMIT \(literal: limit) OFFSET \(literal: offset)
            """).all(decoding: Row.self)
    }

    func since(_ start: Date) async throws -> [Timed] {
        try await sql.raw("""
            SELECT r.submitted_at, \(value) AS value
            \(answered()) AND r.submitted_at >= \(bind: start)
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
