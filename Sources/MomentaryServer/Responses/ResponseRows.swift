import Fluent
import Foundation
import MomentaryCore
import PostgresKit
import SQLKit

/// Writes validated answer sets: the response row, one answer row per survey question (with
/// `NO_ANSWER_SELECTED` / `NOT_PRESENTED` where Beiwe writes them) and the context. Plain SQL
/// inserts with a statement per table for a whole batch, not a model save per row: the response
/// writer runs these while every waiting upload waits for its commit.
enum ResponseRows {
    struct Draft {
        var participantID: UUID
        var studyID: UUID
        var surveyID: UUID
        var surveyVersion: Int
        var kind: Survey.Kind
        var beepID: UUID?
        var volunteered: Bool
        var idempotencyKey: String
        var startedAt: Date
        var submittedAt: Date
        var receivedAt: Date
        var delaySeconds: Double?
        /// The participant's zone when answering, kept on the row (M037).
        var timeZone: String
        /// The language the participant answered in (their language when the answers arrived, M043).
        var language: String? = nil
        /// `[SurveyTiming]` as JSON text, when the app sent any.
        var surveyTimings: String? = nil
        /// The survey's scores as JSON text (M059); nil when it has none.
        var scores: String? = nil
        /// The question ids in the order shown, as a JSON list (M059); nil when not given.
        var presentedOrder: String? = nil
    }

    struct Record {
        var draft: Draft
        let answers: [ValidatedAnswer]
        let context: MomentaryCore.ResponseContext?
    }

    /// Rows per multi-row statement (SQLite's inserts, both databases' beep updates), well inside
    /// SQLite's and PostgreSQL's limits on bound values.
    static let rowsPerStatement = 500

    /// Stores one answer set and returns its response (not read back: built from what was written).
    static func record(
        _ draft: Draft, answers: [ValidatedAnswer], context: MomentaryCore.ResponseContext?, on db: any Database
    ) async throws -> SurveyResponse {
        let id = try await insert([Record(draft: draft, answers: answers, context: context)], on: SQLKitStatementRunner(db.sql))[0]
        return response(draft, id: id)
    }

    /// Inserts the records and returns their new response ids, in order.
    nonisolated(nonsending) static func insert(_ records: [Record], on statements: any StatementRunner) async throws -> [UUID] {
        // Time-ordered ids: each table's id index then grows at its end (see `TimeOrderedUUIDs`).
        var uuids = TimeOrderedUUIDs()
        let ids = records.map { _ in uuids.next() }
        try await write(responseColumns(ids: ids, records: records), as: ResponseInsert.self, on: statements)
        try await write(try answerColumns(ids: ids, records: records, uuids: &uuids), as: AnswerInsert.self, on: statements)
        try await write(contextColumns(ids: ids, records: records, uuids: &uuids), as: ContextInsert.self, on: statements)
        return ids
    }

    /// One prepared statement on the writer's PostgreSQL connection (`PostgresPreparedInsert`);
    /// multi-row VALUES elsewhere.
    nonisolated(nonsending) private static func write<Table: PreparedInsert>(
        _ columns: InsertColumns, as table: Table.Type, on statements: any StatementRunner
    ) async throws {
        guard columns.rowCount > 0 else { return }
        guard let postgres = statements.postgresConnection else {
            for statement in columns.valuesStatements(on: statements.sql, rowsPerStatement: rowsPerStatement) {
                try await statements.perform(statement)
            }
            return
        }
        _ = try await postgres.rows(of: PostgresPreparedInsert<Table>(columns: columns))
    }

    private static func responseColumns(ids: [UUID], records: [Record]) -> InsertColumns {
        let drafts = records.map(\.draft)
        return InsertColumns(table: SurveyResponse.schema, columns: [
            InsertColumn("id", ids),
            InsertColumn("participant_id", drafts.map(\.participantID)),
            InsertColumn("study_id", drafts.map(\.studyID)),
            InsertColumn("survey_id", drafts.map(\.surveyID)),
            InsertColumn("survey_version", drafts.map(\.surveyVersion)),
            InsertColumn("beep_id", drafts.map(\.beepID)),
            InsertColumn("kind", drafts.map(\.kind.rawValue)),
            InsertColumn("volunteered", drafts.map(\.volunteered)),
            InsertColumn("idempotency_key", drafts.map(\.idempotencyKey)),
            InsertColumn("started_at", drafts.map(\.startedAt)),
            InsertColumn("submitted_at", drafts.map(\.submittedAt)),
            InsertColumn("received_at", drafts.map(\.receivedAt)),
            InsertColumn("delay_seconds", drafts.map(\.delaySeconds)),
            InsertColumn("survey_timings", drafts.map(\.surveyTimings)),
            InsertColumn("timezone", drafts.map(\.timeZone)),
            InsertColumn("language", drafts.map(\.language)),
            InsertColumn("scores", drafts.map(\.scores)),
            InsertColumn("presented_order", drafts.map(\.presentedOrder)),
        ])
    }

    private static func answerColumns(ids: [UUID], records: [Record], uuids: inout TimeOrderedUUIDs) throws -> InsertColumns {
        var answerIDs: [UUID] = [], responseIDs: [UUID] = [], positions: [Int] = []
        var questionIDs: [String] = [], questionTypes: [String] = [], statuses: [String] = [], values: [String?] = []
        for (id, record) in zip(ids, records) {
            for (position, answer) in record.answers.enumerated() {
                answerIDs.append(uuids.next())
                responseIDs.append(id)
                positions.append(position)
                questionIDs.append(answer.questionID)
                questionTypes.append(answer.questionType.rawValue)
                statuses.append(answer.status.beiweMarker ?? "answered")
                values.append(try answer.status.value?.sortedKeysJSONText())
            }
        }
        return InsertColumns(table: Answer.schema, columns: [
            InsertColumn("id", answerIDs),
            InsertColumn("response_id", responseIDs),
            InsertColumn("position", positions),
            InsertColumn("question_id", questionIDs),
            InsertColumn("question_type", questionTypes),
            InsertColumn("status", statuses),
            InsertColumn("value", values),
        ])
    }

    private static func contextColumns(ids: [UUID], records: [Record], uuids: inout TimeOrderedUUIDs) -> InsertColumns {
        let contexts = zip(ids, records).compactMap { id, record in record.context.map { (responseID: id, context: $0) } }
        let contextIDs = contexts.map { _ in uuids.next() }
        let locations = contexts.map(\.context.location)
        return InsertColumns(table: SurveyResponseContext.schema, columns: [
            InsertColumn("id", contextIDs),
            InsertColumn("response_id", contexts.map(\.responseID)),
            InsertColumn("latitude", locations.map { $0?.latitude }),
            InsertColumn("longitude", locations.map { $0?.longitude }),
            InsertColumn("altitude", locations.map { $0?.altitude }),
            InsertColumn("horizontal_accuracy", locations.map { $0?.horizontalAccuracy }),
            InsertColumn("vertical_accuracy", locations.map { $0?.verticalAccuracy }),
            InsertColumn("located_at", locations.map { $0?.timestamp }),
            InsertColumn("sound_average_db", contexts.map(\.context.sound?.averageDB)),
            InsertColumn("sound_peak_db", contexts.map(\.context.sound?.peakDB)),
            InsertColumn("battery", contexts.map(\.context.battery)),
            InsertColumn("connection", contexts.map(\.context.connection?.rawValue)),
            InsertColumn("steps", contexts.map(\.context.steps)),
            InsertColumn("impetus", contexts.map(\.context.impetus?.rawValue)),
        ])
    }

    /// The tables' statements on PostgreSQL, written once from the same column lists.
    private enum ResponseInsert: PreparedInsert {
        static let statementName = "momentary_insert_responses"
        static let postgresText = responseColumns(ids: [], records: []).postgresText
    }

    private enum AnswerInsert: PreparedInsert {
        static let statementName = "momentary_insert_answers"
        static let postgresText = { var uuids = TimeOrderedUUIDs(); return try! answerColumns(ids: [], records: [], uuids: &uuids).postgresText }()
    }

    private enum ContextInsert: PreparedInsert {
        static let statementName = "momentary_insert_contexts"
        static let postgresText = { var uuids = TimeOrderedUUIDs(); return contextColumns(ids: [], records: [], uuids: &uuids).postgresText }()
    }

    /// The response as stored, for callers that want the model.
    static func response(_ draft: Draft, id: UUID) -> SurveyResponse {
        let response = SurveyResponse()
        response.id = id
        response.$id.exists = true
        response.$participant.id = draft.participantID
        response.$study.id = draft.studyID
        response.$survey.id = draft.surveyID
        response.surveyVersion = draft.surveyVersion
        response.language = draft.language
        response.kind = draft.kind
        response.$beep.id = draft.beepID
        response.volunteered = draft.volunteered
        response.idempotencyKey = draft.idempotencyKey
        response.startedAt = draft.startedAt
        response.submittedAt = draft.submittedAt
        response.receivedAt = draft.receivedAt
        response.delaySeconds = draft.delaySeconds
        response.surveyTimings = draft.surveyTimings
        response.scores = draft.scores
        response.presentedOrder = draft.presentedOrder
        response.timeZone = draft.timeZone
        return response
    }

    /// The receipt of the response the participant already stored under `key`, if any: a retried
    /// upload is answered with its first copy's receipt (by the request, and by the batch writer).
    nonisolated(nonsending) static func storedReceipt(participantID: UUID, key: String, on statements: any StatementRunner) async throws -> ResponseReceipt? {
        struct Row: Decodable {
            let id: UUID
            let volunteered: Bool
            let delaySeconds: Double?
            enum CodingKeys: String, CodingKey { case id, volunteered, delaySeconds = "delay_seconds" }
        }
        let rows = try await statements.rows(SQLQueryString("""
            SELECT id, volunteered, delay_seconds FROM responses
            WHERE participant_id = \(bind: participantID) AND idempotency_key = \(bind: key)
            """), decoding: Row.self)
        return rows.first.map { ResponseReceipt(responseID: $0.id, volunteered: $0.volunteered, delaySeconds: $0.delaySeconds) }
    }
}
