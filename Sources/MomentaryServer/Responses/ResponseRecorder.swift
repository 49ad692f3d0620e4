import Fluent
import Foundation
import MomentaryCore

/// Writes one validated answer set: the response row, one answer row per survey question (with
/// `NO_ANSWER_SELECTED` / `NOT_PRESENTED` where Beiwe writes them) and the context.
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

    static func record(
        _ draft: Draft, answers: [ValidatedAnswer], context: MomentaryCore.ResponseContext?, on db: any Database
    ) async throws -> SurveyResponse {
        let response = SurveyResponse()
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
        try await response.create(on: db)
        let responseID = try response.requireID()

        let rows = try answers.enumerated().map { position, validated in
            let answer = Answer()
            answer.$response.id = responseID
            answer.position = position
            answer.questionID = validated.questionID
            answer.questionType = validated.questionType.rawValue
            answer.status = validated.status.beiweMarker ?? "answered"
            answer.value = try validated.status.value.map(jsonText)
            return answer
        }
        try await rows.create(on: db)
        if let context {
            try await contextRow(context, responseID: responseID).create(on: db)
        }
        return response
    }

    private static func contextRow(_ context: MomentaryCore.ResponseContext, responseID: UUID) -> SurveyResponseContext {
        let row = SurveyResponseContext()
        row.$response.id = responseID
        row.latitude = context.location?.latitude
        row.longitude = context.location?.longitude
        row.altitude = context.location?.altitude
        row.horizontalAccuracy = context.location?.horizontalAccuracy
        row.verticalAccuracy = context.location?.verticalAccuracy
        row.locatedAt = context.location?.timestamp
        row.soundAverageDB = context.sound?.averageDB
        row.soundPeakDB = context.sound?.peakDB
        row.battery = context.battery
        row.connection = context.connection?.rawValue
        row.steps = context.steps
        row.impetus = context.impetus?.rawValue
        return row
    }

    static func jsonText(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
