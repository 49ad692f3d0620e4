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
    /// Where the first page starts (a research API page after the previous one's last response).
    private let start: (id: UUID, submittedAt: Date)?
    /// Reads only the first page (a research API page), and nothing ahead of it.
    private let onePage: Bool

    static let defaultPageSize = 500

    init(
        studyID: UUID, filter: ExportFilter, pageSize: Int = defaultPageSize, order: Order = .oldestFirst, numbered: Bool = false,
        startingAfter start: (id: UUID, submittedAt: Date)? = nil, onePage: Bool = false, on db: any Database
    ) async throws {
        self.start = start
        self.onePage = onePage
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
            page = if let reading { try await reading.value } else { try await pages.read(after: start) }
        } catch {
            exhausted = true  // A page lost is not skipped: the export ends with the error.
            throw error
        }
        guard let last = page.rows.last else {
            exhausted = true
            return nil
        }
        if page.rows.count < pages.pageSize || onePage {
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
        let rows = try await ResponsePageColumn.rows(numbered: numbered).read(pageQuery(after: cursor), from: source)
            .map(ResponsePageRow.init)
        return ReadPage(rows: rows, answers: rows.isEmpty ? [:] : try await answersByResponse(rows.map(\.responseID)))
    }

    private func pageQuery(after cursor: (id: UUID, submittedAt: Date)?) -> SQLQueryString {
        var query: SQLQueryString = "SELECT \(unsafeRaw: ResponsePageColumn.selectList(numbered: numbered))"
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
            SELECT \(unsafeRaw: Self.answerColumns.columns.map(\.name).joined(separator: ", ")) FROM answers
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
