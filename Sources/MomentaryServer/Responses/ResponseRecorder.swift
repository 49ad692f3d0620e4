import Fluent
import Foundation
import MomentaryCore
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
        /// `[SurveyTiming]` as JSON text, when the app sent any.
        var surveyTimings: String? = nil
    }

    struct Record {
        var draft: Draft
        let answers: [ValidatedAnswer]
        let context: MomentaryCore.ResponseContext?
    }

    /// Rows per insert statement, well inside SQLite's and PostgreSQL's limits on bound values.
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
        let sql = statements.sql
        // Time-ordered ids: each table's id index then grows at its end (see `TimeOrderedUUIDs`).
        var uuids = TimeOrderedUUIDs()
        let ids = records.map { _ in uuids.next() }
        for chunk in zip(ids, records).chunked(rowsPerStatement) {
            let insert = sql.insert(into: SurveyResponse.schema).columns(
                "id", "participant_id", "study_id", "survey_id", "survey_version", "beep_id", "kind", "volunteered",
                "idempotency_key", "started_at", "submitted_at", "received_at", "delay_seconds", "survey_timings")
            for (id, record) in chunk {
                let draft = record.draft
                insert.values(
                    bind(id), bind(draft.participantID), bind(draft.studyID), bind(draft.surveyID), bind(draft.surveyVersion),
                    bind(draft.beepID), bind(draft.kind.rawValue), bind(draft.volunteered), bind(draft.idempotencyKey),
                    bind(draft.startedAt), bind(draft.submittedAt), bind(draft.receivedAt), bind(draft.delaySeconds),
                    bind(draft.surveyTimings))
            }
            try await statements.perform(insert.query)
        }
        let answers = try zip(ids, records).flatMap { id, record in
            try record.answers.enumerated().map { position, answer -> [any SQLExpression] in
                [bind(uuids.next()), bind(id), bind(position), bind(answer.questionID), bind(answer.questionType.rawValue),
                 bind(answer.status.beiweMarker ?? "answered"), bind(try answer.status.value?.sortedKeysJSONText())]
            }
        }
        for chunk in answers.chunked(rowsPerStatement) {
            let insert = sql.insert(into: Answer.schema)
                .columns("id", "response_id", "position", "question_id", "question_type", "status", "value")
            for row in chunk { insert.values(row) }
            try await statements.perform(insert.query)
        }
        let contexts = zip(ids, records).compactMap { id, record in record.context.map { contextRow($0, id: uuids.next(), responseID: id) } }
        for chunk in contexts.chunked(rowsPerStatement) {
            let insert = sql.insert(into: SurveyResponseContext.schema).columns(
                "id", "response_id", "latitude", "longitude", "altitude", "horizontal_accuracy", "vertical_accuracy",
                "located_at", "sound_average_db", "sound_peak_db", "battery", "connection", "steps", "impetus")
            for row in chunk { insert.values(row) }
            try await statements.perform(insert.query)
        }
        return ids
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
        response.kind = draft.kind
        response.$beep.id = draft.beepID
        response.volunteered = draft.volunteered
        response.idempotencyKey = draft.idempotencyKey
        response.startedAt = draft.startedAt
        response.submittedAt = draft.submittedAt
        response.receivedAt = draft.receivedAt
        response.delaySeconds = draft.delaySeconds
        response.surveyTimings = draft.surveyTimings
        return response
    }

    private static func contextRow(_ context: MomentaryCore.ResponseContext, id: UUID, responseID: UUID) -> [any SQLExpression] {
        [bind(id), bind(responseID),
         bind(context.location?.latitude), bind(context.location?.longitude), bind(context.location?.altitude),
         bind(context.location?.horizontalAccuracy), bind(context.location?.verticalAccuracy), bind(context.location?.timestamp),
         bind(context.sound?.averageDB), bind(context.sound?.peakDB), bind(context.battery), bind(context.connection?.rawValue),
         bind(context.steps), bind(context.impetus?.rawValue)]
    }

    /// A bound value, or SQL `NULL` for nil (as Fluent writes an absent optional field).
    private static func bind<Value: Encodable & Sendable>(_ value: Value?) -> any SQLExpression {
        value.map { SQLBind($0) } ?? SQLLiteral.null
    }
}
