import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// Reads a study's responses a page at a time, in (submitted_at, id) order (or its reverse), with
/// keyset pagination: each page starts after the last row of the previous one, so memory holds one
/// page and a late page costs no more than an early one. Survey names and question texts are cached
/// across pages.
struct ExportReader {
    /// Newest first is how a participant's own download lists their responses.
    enum Order: Sendable {
        case oldestFirst, newestFirst
    }

    private let sql: any SQLDatabase
    private let studyID: UUID
    private let filter: ExportFilter
    private let pageSize: Int
    private let order: Order
    /// Whether records carry their sequence number within their participant's responses.
    private let numbered: Bool
    private let surveyNames: [UUID: String]
    private var zones: ParticipantZones
    private var questions: SurveyQuestionCache
    private var cursor: (id: UUID, submittedAt: Date)?
    private var exhausted = false

    static let defaultPageSize = 500

    init(
        studyID: UUID, filter: ExportFilter, pageSize: Int = defaultPageSize, order: Order = .oldestFirst, numbered: Bool = false,
        on db: any Database
    ) async throws {
        let sql = try StudyExport.sql(db)
        self.sql = sql
        self.studyID = studyID
        self.filter = filter
        self.pageSize = max(1, pageSize)
        self.order = order
        self.numbered = numbered
        self.questions = SurveyQuestionCache(sql: sql)
        let surveys = try await sql.raw("SELECT id, name FROM surveys WHERE study_id = \(bind: studyID)")
            .all(decoding: SurveyNameRow.self)
        self.surveyNames = Dictionary(surveys.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        self.zones = try await ParticipantZones(studyID: studyID, sql: sql)
    }

    /// The next page of responses, or nil when all have been read.
    mutating func nextPage() async throws -> [ExportRecord]? {
        guard !exhausted else { return nil }
        let rows = try await sql.raw(pageQuery()).all(decoding: ResponsePageRow.self)
        if rows.count < pageSize { exhausted = true }
        guard let last = rows.last else { return nil }
        cursor = (last.responseId, last.submittedAt)

        let answers = try await answersByResponse(rows.map(\.responseId))
        var records: [ExportRecord] = []
        records.reserveCapacity(rows.count)
        for row in rows {
            let texts = try await questions.texts(survey: row.surveyId, version: row.surveyVersion)
            let exported = (answers[row.responseId] ?? []).map { answer in
                ExportAnswer(
                    position: answer.position, questionID: answer.questionId, questionType: answer.questionType,
                    questionText: texts[answer.questionId] ?? "", status: answer.status, value: answer.value)
            }
            records.append(row.record(
                surveyName: surveyNames[row.surveyId] ?? "", timeZone: zones.zone(named: row.participantTimezone), answers: exported))
        }
        return records
    }

    private func pageQuery() -> SQLQueryString {
        var query: SQLQueryString = """
            SELECT r.id AS response_id, r.participant_id, r.survey_id, r.survey_version, r.kind, r.beep_id,
                r.volunteered, r.started_at, r.submitted_at, r.received_at, r.delay_seconds, r.survey_timings,
                b.scheduled_at AS beep_scheduled_at, b.sent_at AS beep_sent_at, c.id AS context_id,
                c.latitude, c.longitude, c.altitude, c.horizontal_accuracy, c.vertical_accuracy, c.located_at,
                c.place_text, c.country, c.sound_average_db, c.sound_peak_db, c.battery, c.connection, c.steps,
                c.impetus, c.weather, c.air_quality, c.pollen, p.label AS participant_label,
                p.timezone AS participant_timezone
            """
        if numbered {
            query += """
                , (SELECT COUNT(*) FROM responses s WHERE s.participant_id = r.participant_id
                    AND (s.submitted_at < r.submitted_at OR (s.submitted_at = r.submitted_at AND s.id <= r.id))) AS sequence
                """
        }
        query += """
             FROM responses r
            JOIN participants p ON p.id = r.participant_id
            LEFT JOIN beeps b ON b.id = r.beep_id
            LEFT JOIN response_contexts c ON c.response_id = r.id
            WHERE r.study_id = \(bind: studyID)
            """
        query += filter.conditions(time: "r.submitted_at", participant: "r.participant_id", responseID: "r.id")
        let keyset = KeysetPage(table: "responses", alias: "r", timeColumn: "submitted_at", newestFirst: order == .newestFirst)
        query += keyset.after(cursor.map { ($0.id, $0.submittedAt) })
        query += keyset.order(limit: pageSize)
        return query
    }

    private func answersByResponse(_ responseIDs: [UUID]) async throws -> [UUID: [AnswerRow]] {
        let rows = try await sql.raw("""
            SELECT response_id, position, question_id, question_type, status, value FROM answers
            WHERE response_id IN (\(binds: responseIDs)) ORDER BY response_id, position
            """).all(decoding: AnswerRow.self)
        return Dictionary(grouping: rows, by: \.responseId)
    }
}

private struct SurveyNameRow: Decodable {
    let id: UUID
    let name: String
}

// Rows name their columns in CodingKeys: a key-conversion strategy would convert every key of
// every row, which costs more than the rest of the decoding.
private struct AnswerRow: Decodable {
    let responseId: UUID
    let position: Int
    let questionId: String
    let questionType: String
    let status: String
    let value: String?

    enum CodingKeys: String, CodingKey {
        case responseId = "response_id", position, questionId = "question_id", questionType = "question_type"
        case status, value
    }
}

private struct ResponsePageRow: Decodable {
    let responseId: UUID
    let participantId: UUID
    let surveyId: UUID
    let surveyVersion: Int
    let kind: String
    let beepId: UUID?
    let volunteered: Bool
    let startedAt: Date
    let submittedAt: Date
    let receivedAt: Date
    let delaySeconds: Double?
    let surveyTimings: String?
    let beepScheduledAt: Date?
    let beepSentAt: Date?
    let contextId: UUID?
    let latitude: Double?
    let longitude: Double?
    let altitude: Double?
    let horizontalAccuracy: Double?
    let verticalAccuracy: Double?
    let locatedAt: Date?
    let placeText: String?
    let country: String?
    let soundAverageDb: Double?
    let soundPeakDb: Double?
    let battery: Double?
    let connection: String?
    let steps: Int?
    let impetus: String?
    let weather: String?
    let airQuality: String?
    let pollen: String?
    let participantLabel: String?
    let participantTimezone: String
    let sequence: Int?

    enum CodingKeys: String, CodingKey {
        case responseId = "response_id", participantId = "participant_id", surveyId = "survey_id"
        case surveyVersion = "survey_version", kind, beepId = "beep_id", volunteered, startedAt = "started_at"
        case submittedAt = "submitted_at", receivedAt = "received_at", delaySeconds = "delay_seconds"
        case surveyTimings = "survey_timings"
        case beepScheduledAt = "beep_scheduled_at", beepSentAt = "beep_sent_at", contextId = "context_id"
        case latitude, longitude, altitude, horizontalAccuracy = "horizontal_accuracy"
        case verticalAccuracy = "vertical_accuracy", locatedAt = "located_at", placeText = "place_text", country
        case soundAverageDb = "sound_average_db", soundPeakDb = "sound_peak_db", battery, connection, steps
        case impetus, weather, airQuality = "air_quality", pollen
        case participantLabel = "participant_label", participantTimezone = "participant_timezone", sequence
    }

    func record(surveyName: String, timeZone: TimeZone, answers: [ExportAnswer]) -> ExportRecord {
        ExportRecord(
            responseID: responseId, participantID: participantId, participantLabel: participantLabel, timeZone: timeZone,
            surveyName: surveyName, surveyKind: kind,
            surveyVersion: surveyVersion, beepID: beepId, scheduledAt: beepScheduledAt, sentAt: beepSentAt,
            startedAt: startedAt, submittedAt: submittedAt, receivedAt: receivedAt, delaySeconds: delaySeconds,
            volunteered: volunteered, answers: answers, context: context, surveyTimings: surveyTimings, sequence: sequence)
    }

    private var context: ExportContext? {
        guard contextId != nil else { return nil }
        return ExportContext(
            latitude: latitude, longitude: longitude, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
            verticalAccuracy: verticalAccuracy, locatedAt: locatedAt, place: placeText, country: country,
            soundAverageDB: soundAverageDb, soundPeakDB: soundPeakDb, battery: battery, connection: connection,
            steps: steps, impetus: impetus, weather: weather, airQuality: airQuality, pollen: pollen)
    }
}
