import Fluent
import Foundation
import MomentaryCore
import PostgresKit
import SQLKit

/// Writes validated answer sets: the response row, one answer row per survey question (with
/// `NO_ANSWER_SELECTED` / `NOT_PRESENTED` where Beiwe writes them) and the context. Plain SQL
/// inserts with a statement per table for a whole batch, not a model save per row: the response
/// writer runs these while every waiting upload waits for its commit.
enum ResponseRecorder {
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
        let id = try await insert([Record(draft: draft, answers: answers, context: context)], on: try SQLKitStatements(db))[0]
        return response(draft, id: id)
    }

    /// Inserts the records and returns their new response ids, in order.
    nonisolated(nonsending) static func insert(_ records: [Record], on statements: any BatchStatements) async throws -> [UUID] {
        // Time-ordered ids: each table's id index then grows at its end (see `TimeOrderedUUIDs`).
        var uuids = TimeOrderedUUIDs()
        let ids = records.map { _ in uuids.next() }
        try await write(responseColumns(ids: ids, records: records), as: ResponseTable.self, on: statements)
        try await write(try answerColumns(ids: ids, records: records, uuids: &uuids), as: AnswerTable.self, on: statements)
        try await write(contextColumns(ids: ids, records: records, uuids: &uuids), as: ContextTable.self, on: statements)
        return ids
    }

    /// One prepared statement on the writer's PostgreSQL connection (`PostgresBatchInsert`);
    /// multi-row VALUES elsewhere.
    nonisolated(nonsending) private static func write<Table: BatchTable>(
        _ columns: BatchColumns, as table: Table.Type, on statements: any BatchStatements
    ) async throws {
        guard columns.rowCount > 0 else { return }
        guard let postgres = statements.postgresConnection else {
            for statement in columns.valuesStatements(on: statements.sql, rowsPerStatement: rowsPerStatement) {
                try await statements.perform(statement)
            }
            return
        }
        _ = try await postgres.rows(of: PostgresBatchInsert<Table>(columns: columns))
    }

    private static func responseColumns(ids: [UUID], records: [Record]) -> BatchColumns {
        let drafts = records.map(\.draft)
        return BatchColumns(table: SurveyResponse.schema, columns: [
            BatchColumn("id", ids),
            BatchColumn("participant_id", drafts.map(\.participantID)),
            BatchColumn("study_id", drafts.map(\.studyID)),
            BatchColumn("survey_id", drafts.map(\.surveyID)),
            BatchColumn("survey_version", drafts.map(\.surveyVersion)),
            BatchColumn("beep_id", drafts.map(\.beepID)),
            BatchColumn("kind", drafts.map(\.kind.rawValue)),
            BatchColumn("volunteered", drafts.map(\.volunteered)),
            BatchColumn("idempotency_key", drafts.map(\.idempotencyKey)),
            BatchColumn("started_at", drafts.map(\.startedAt)),
            BatchColumn("submitted_at", drafts.map(\.submittedAt)),
            BatchColumn("received_at", drafts.map(\.receivedAt)),
            BatchColumn("delay_seconds", drafts.map(\.delaySeconds)),
            BatchColumn("survey_timings", drafts.map(\.surveyTimings)),
            BatchColumn("timezone", drafts.map(\.timeZone)),
            BatchColumn("language", drafts.map(\.language)),
        ])
    }

    private static func answerColumns(ids: [UUID], records: [Record], uuids: inout TimeOrderedUUIDs) throws -> BatchColumns {
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
        return BatchColumns(table: Answer.schema, columns: [
            BatchColumn("id", answerIDs),
            BatchColumn("response_id", responseIDs),
            BatchColumn("position", positions),
            BatchColumn("question_id", questionIDs),
            BatchColumn("question_type", questionTypes),
            BatchColumn("status", statuses),
            BatchColumn("value", values),
        ])
    }

    private static func contextColumns(ids: [UUID], records: [Record], uuids: inout TimeOrderedUUIDs) -> BatchColumns {
        let contexts = zip(ids, records).compactMap { id, record in record.context.map { (responseID: id, context: $0) } }
        let contextIDs = contexts.map { _ in uuids.next() }
        let locations = contexts.map(\.context.location)
        return BatchColumns(table: SurveyResponseContext.schema, columns: [
            BatchColumn("id", contextIDs),
            BatchColumn("response_id", contexts.map(\.responseID)),
            BatchColumn("latitude", locations.map { $0?.latitude }),
            BatchColumn("longitude", locations.map { $0?.longitude }),
            BatchColumn("altitude", locations.map { $0?.altitude }),
            BatchColumn("horizontal_accuracy", locations.map { $0?.horizontalAccuracy }),
            BatchColumn("vertical_accuracy", locations.map { $0?.verticalAccuracy }),
            BatchColumn("located_at", locations.map { $0?.timestamp }),
            BatchColumn("sound_average_db", contexts.map(\.context.sound?.averageDB)),
            BatchColumn("sound_peak_db", contexts.map(\.context.sound?.peakDB)),
            BatchColumn("battery", contexts.map(\.context.battery)),
            BatchColumn("connection", contexts.map(\.context.connection?.rawValue)),
            BatchColumn("steps", contexts.map(\.context.steps)),
            BatchColumn("impetus", contexts.map(\.context.impetus?.rawValue)),
        ])
    }

    /// The tables' statements on PostgreSQL, written once from the same column lists.
    private enum ResponseTable: BatchTable {
        static let statementName = "momentary_insert_responses"
        static let postgresText = responseColumns(ids: [], records: []).postgresText
    }

    private enum AnswerTable: BatchTable {
        static let statementName = "momentary_insert_answers"
        static let postgresText = { var uuids = TimeOrderedUUIDs(); return try! answerColumns(ids: [], records: [], uuids: &uuids).postgresText }()
    }

    private enum ContextTable: BatchTable {
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
        response.timeZone = draft.timeZone
        return response
    }
}
