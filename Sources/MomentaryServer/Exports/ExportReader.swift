import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// Reads a study's responses a page at a time, in (submitted_at, id) order (or its reverse), with
/// keyset pagination: each page starts after the last row of the previous one, so memory holds a
/// page or two however large the study, and a late page costs no more than an early one. Survey
/// names and question texts are cached across pages.
///
/// While the caller writes out one page, the next is read: reading (the database's work) and
/// writing (the format's) then share the two cores instead of taking turns.
struct ExportReader {
    /// Newest first is how a participant's own download lists their responses.
    enum Order: Sendable {
        case oldestFirst, newestFirst
    }

    private let pages: PageQuery
    private let surveyNames: [UUID: String]
    private var zones: ParticipantZones
    private var questions: SurveyQuestionCache
    /// The next page, being read (started once the page before it was read in full).
    private var ahead: Task<ReadPage, any Error>?
    private var exhausted = false

    static let defaultPageSize = 500

    init(
        studyID: UUID, filter: ExportFilter, pageSize: Int = defaultPageSize, order: Order = .oldestFirst, numbered: Bool = false,
        on db: any Database
    ) async throws {
        let sql = db.sql
        self.pages = PageQuery(
            source: try await ExportSource.open(sql), studyID: studyID, filter: filter, pageSize: max(1, pageSize), order: order,
            numbered: numbered)
        self.questions = SurveyQuestionCache(sql: sql)
        let surveys = try await sql.raw("SELECT id, name FROM surveys WHERE study_id = \(bind: studyID)")
            .all(decoding: SurveyNameRow.self)
        self.surveyNames = Dictionary(surveys.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        self.zones = try await ParticipantZones(studyID: studyID, sql: sql)
    }

    /// The next page of responses, or nil when all have been read.
    mutating func nextPage() async throws -> [ExportRecord]? {
        guard !exhausted else { return nil }
        let reading = ahead
        ahead = nil
        var page: ReadPage
        do {
            page = if let reading { try await reading.value } else { try await pages.read(after: nil) }
        } catch {
            exhausted = true  // A page lost is not skipped: the export ends with the error.
            throw error
        }
        guard let last = page.rows.last else {
            exhausted = true
            return nil
        }
        if page.rows.count < pages.pageSize {
            exhausted = true
        } else {
            let pages = self.pages
            let cursor = (last.responseID, last.submittedAt)
            ahead = Task { try await pages.read(after: cursor) }
        }

        var records: [ExportRecord] = []
        records.reserveCapacity(page.rows.count)
        for row in page.rows {
            let texts = try await questions.texts(survey: row.surveyID, version: row.surveyVersion)
            var exported = page.answers.removeValue(forKey: row.responseID) ?? []
            for index in exported.indices {
                exported[index].questionText = texts[exported[index].questionID] ?? ""
            }
            records.append(try row.record(
                surveyName: surveyNames[row.surveyID] ?? "", timeZone: zones.zone(named: row.participantTimezone), answers: exported))
        }
        return records
    }
}

/// A page's responses and their answers as read, before names, texts and zones are added.
private struct ReadPage: Sendable {
    let rows: [ResponsePageRow]
    var answers: [UUID: [ExportAnswer]]
}

/// The queries of a page: all `ExportReader` needs to read one, so the next can be read beside it.
private struct PageQuery: Sendable {
    let source: ExportSource
    let studyID: UUID
    let filter: ExportFilter
    let pageSize: Int
    let order: ExportReader.Order
    /// Whether records carry their sequence number within their participant's responses.
    let numbered: Bool

    /// The page after `cursor` (the last response of the page before; nil for the first).
    func read(after cursor: (id: UUID, submittedAt: Date)?) async throws -> ReadPage {
        let rows = try await ResponsePageRow.columns(numbered: numbered).read(pageQuery(after: cursor), from: source)
            .map(ResponsePageRow.init)
        return ReadPage(rows: rows, answers: rows.isEmpty ? [:] : try await answersByResponse(rows.map(\.responseID)))
    }

    private func pageQuery(after cursor: (id: UUID, submittedAt: Date)?) -> SQLQueryString {
        var query: SQLQueryString = """
            SELECT r.id AS response_id, r.participant_id, r.survey_id, r.survey_version, r.kind, r.beep_id,
                r.volunteered, r.started_at, r.submitted_at, r.received_at, r.delay_seconds, r.survey_timings,
                b.scheduled_at AS beep_scheduled_at, b.sent_at AS beep_sent_at, c.id AS context_id,
                c.latitude, c.longitude, c.altitude, c.horizontal_accuracy, c.vertical_accuracy, c.located_at,
                c.place_text, c.country, c.sound_average_db, c.sound_peak_db, c.battery, c.connection, c.steps,
                c.impetus, c.weather, c.air_quality, c.pollen, p.label AS participant_label,
                COALESCE(r.timezone, p.timezone) AS participant_timezone, b.origin AS beep_origin, r.language, r.kept_as_is
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
        query += filter.conditions(time: "r.submitted_at", participant: "r.participant_id", responseID: "r.id", survey: "r.survey_id")
        let keyset = KeysetPage(table: "responses", alias: "r", timeColumn: "submitted_at", newestFirst: order == .newestFirst)
        query += keyset.after(cursor.map { ($0.id, $0.submittedAt) })
        query += keyset.order(limit: pageSize)
        return query
    }

    /// Each response's answers in survey order. The rows come sorted by response, so each
    /// response's run of rows is collected before it is filed under its id.
    private func answersByResponse(_ responseIDs: [UUID]) async throws -> [UUID: [ExportAnswer]] {
        let rows = try await Self.answerColumns.read("""
            SELECT response_id, position, question_id, question_type, status, value FROM answers
            WHERE response_id IN (\(binds: responseIDs)) ORDER BY response_id, position
            """, from: source)
        var grouped: [UUID: [ExportAnswer]] = [:]
        grouped.reserveCapacity(responseIDs.count)
        var current: (id: UUID, answers: [ExportAnswer])?
        for row in rows {
            let responseID = try row.required(0, row.uuid)
            let answer = ExportAnswer(
                position: try row.required(1, row.integer), questionID: try row.required(2, row.text),
                questionType: try row.required(3, row.text), questionText: "", status: try row.required(4, row.text),
                value: row.text(5))
            if current?.id == responseID {
                current?.answers.append(answer)
            } else {
                if let current { grouped[current.id] = current.answers }
                current = (responseID, [answer])
            }
        }
        if let current { grouped[current.id] = current.answers }
        return grouped
    }

    private static let answerColumns = ExportRows(columns: [
        ("response_id", .uuid), ("position", .integer), ("question_id", .text), ("question_type", .text),
        ("status", .text), ("value", .text),
    ])
}

private struct SurveyNameRow: Decodable {
    let id: UUID
    let name: String
}

/// The response columns of `pageQuery`, read by position in the order of its SELECT list.
private struct ResponsePageRow: Sendable {
    static func columns(numbered: Bool) -> ExportRows {
        numbered ? numberedColumns : unnumberedColumns
    }

    private static let numberedColumns = ExportRows(columns: unnumberedColumns.columns + [("sequence", .integer)])

    private static let unnumberedColumns = ExportRows(columns: [
        ("response_id", .uuid), ("participant_id", .uuid), ("survey_id", .uuid), ("survey_version", .integer),
        ("kind", .text), ("beep_id", .uuid), ("volunteered", .bool), ("started_at", .date), ("submitted_at", .date),
        ("received_at", .date), ("delay_seconds", .real), ("survey_timings", .text), ("beep_scheduled_at", .date),
        ("beep_sent_at", .date), ("context_id", .uuid), ("latitude", .real), ("longitude", .real), ("altitude", .real),
        ("horizontal_accuracy", .real), ("vertical_accuracy", .real), ("located_at", .date), ("place_text", .text),
        ("country", .text), ("sound_average_db", .real), ("sound_peak_db", .real), ("battery", .real),
        ("connection", .text), ("steps", .integer), ("impetus", .text), ("weather", .text), ("air_quality", .text),
        ("pollen", .text), ("participant_label", .text), ("participant_timezone", .text), ("beep_origin", .text),
        ("language", .text), ("kept_as_is", .text),
    ])

    let row: ExportRow
    let responseID: UUID
    let surveyID: UUID
    let surveyVersion: Int
    let submittedAt: Date
    let participantTimezone: String

    init(_ row: ExportRow) throws {
        self.row = row
        responseID = try row.required(0, row.uuid)
        surveyID = try row.required(2, row.uuid)
        surveyVersion = try row.required(3, row.integer)
        submittedAt = try row.required(8, row.date)
        participantTimezone = try row.required(33, row.text)
    }

    func record(surveyName: String, timeZone: TimeZone, answers: [ExportAnswer]) throws -> ExportRecord {
        ExportRecord(
            responseID: responseID, participantID: try row.required(1, row.uuid), participantLabel: row.text(32),
            timeZone: timeZone, surveyName: surveyName, surveyKind: try row.required(4, row.text),
            surveyVersion: surveyVersion, beepID: row.uuid(5), scheduledAt: row.date(12), sentAt: row.date(13),
            startedAt: try row.required(7, row.date), submittedAt: submittedAt, receivedAt: try row.required(9, row.date),
            delaySeconds: row.real(10), volunteered: try row.required(6, row.bool), answers: answers,
            context: context, surveyTimings: row.text(11), sequence: row.values.count > 37 ? row.integer(37) : nil,
            beepOrigin: row.text(34), language: row.text(35), surveyID: surveyID, keptAsIs: row.text(36))
    }

    private var context: ExportContext? {
        guard row.uuid(14) != nil else { return nil }
        return ExportContext(
            latitude: row.real(15), longitude: row.real(16), altitude: row.real(17), horizontalAccuracy: row.real(18),
            verticalAccuracy: row.real(19), locatedAt: row.date(20), place: row.text(21), country: row.text(22),
            soundAverageDB: row.real(23), soundPeakDB: row.real(24), battery: row.real(25), connection: row.text(26),
            steps: row.integer(27), impetus: row.text(28), weather: row.text(29), airQuality: row.text(30),
            pollen: row.text(31))
    }
}
