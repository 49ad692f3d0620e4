import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// "My happiness": a participant's own answers summarised by `FeedbackCalculator`, against the
/// current version of their study's experience survey (question ids are stable across versions).
enum FeedbackService {
    /// The summary, or a 404 when the study has feedback switched off.
    static func summary(for participant: Participant, on db: any Database) async throws -> FeedbackSummary {
        guard let study = try await Study.find(participant.$study.id, on: db), study.feedbackEnabled else {
            throw APIError.notFound("Your study does not show feedback charts.")
        }
        return try await summary(for: participant, study: study, on: db)
    }

    static func summary(for participant: Participant, study: Study, on db: any Database) async throws -> FeedbackSummary {
        let language = participant.language.map { [$0] } ?? []
        guard let document = try await SurveyCatalog.answeredDocument(of: study, for: language, on: db) else {
            return FeedbackCalculator.summary(
                survey: SurveyDocument(content: []), samples: [], words: AppCatalogues.feedbackWords(language: participant.language))
        }
        let zone = ParticipantTimeZone.resolve(participant.timeZone, studyDefault: study.defaultTimeZone)
        let samples = try await samples(of: try participant.requireID(), in: zone, on: db)
        return FeedbackCalculator.summary(
            survey: document, feedbackQuestionID: study.feedbackQuestionID, samples: samples,
            words: AppCatalogues.feedbackWords(language: participant.language))
    }

    /// What a study's charts, statistics and calendar titles summarise (`FeedbackSubject`): the
    /// slider or score its settings name, else the first slider of the survey participants
    /// answer; nil when there is none. Its texts are in the study's default language.
    static func subject(of study: Study, on db: any Database) async throws -> FeedbackSubject? {
        guard let document = try await SurveyCatalog.answeredDocument(of: study, on: db) else { return nil }
        return FeedbackSubject(in: document, named: study.feedbackQuestionID)
    }

    /// Every experience-sampling response of the participant with its answered questions, each
    /// at its hour in the zone it was given in (`zone` for a response stored without one).
    private static func samples(of participantID: UUID, in zone: TimeZone, on db: any Database) async throws -> [FeedbackCalculator.Sample] {
        let rows = try await db.sql.raw("""
            SELECT r.id AS response_id, r.started_at, r.timezone, a.question_id, a.value FROM responses r
            JOIN answers a ON a.response_id = r.id
            WHERE r.participant_id = \(bind: participantID) AND r.kind = \(bind: Survey.Kind.esm.rawValue)
                AND a.status = 'answered' AND a.value IS NOT NULL
            """).all(decoding: Row.self)
        var calendars: [String: Calendar] = [:]
        func calendar(_ name: String?) -> Calendar {
            let key = name ?? ""
            if let known = calendars[key] { return known }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = name.flatMap(TimeZone.init(identifier:)) ?? zone
            calendars[key] = calendar
            return calendar
        }
        var byResponse: [UUID: FeedbackCalculator.Sample] = [:]
        let decoder = JSONDecoder()
        for row in rows {
            guard let value = try? decoder.decode(JSONValue.self, from: Data(row.value.utf8)) else { continue }
            byResponse[row.responseId, default: FeedbackCalculator.Sample(
                localHour: calendar(row.timezone).component(.hour, from: row.startedAt), answers: [:])].answers[row.questionId] = value
        }
        return Array(byResponse.values)
    }

    private struct Row: Decodable {
        let responseId: UUID
        let startedAt: Date
        let timezone: String?
        let questionId: String
        let value: String

        enum CodingKeys: String, CodingKey {
            case responseId = "response_id", startedAt = "started_at", timezone, questionId = "question_id", value
        }
    }
}
