import Fluent
import Foundation
import MomentaryCore

/// Stores a participant's answers (Mappiness `esm_answers`). Idempotent by key: a retried upload
/// returns the first receipt and stores nothing new. A response without a beep answers the beep
/// awaiting an answer if there is one; otherwise it is volunteered.
enum ResponseIngestService {
    struct Outcome {
        let receipt: ResponseReceipt
        /// False when the idempotency key had been seen before.
        let created: Bool
    }

    static func submit(_ submission: ResponseSubmission, from participant: Participant, on db: any Database, now: Date) async throws -> Outcome {
        try submission.validate()
        let participantID = try participant.requireID()
        if let existing = try await existingResponse(participantID: participantID, key: submission.idempotencyKey, on: db) {
            return Outcome(receipt: try receipt(of: existing), created: false)
        }
        let beep = try await answerableBeep(submission.beepID, startedAt: submission.startedAt, participantID: participantID, on: db, now: now)
        let survey = try await survey(for: submission, beep: beep, studyID: participant.$study.id, on: db)
        let surveyID = try survey.requireID()
        guard let version = try await SurveyCatalog.version(submission.surveyVersion, of: surveyID, on: db) else {
            throw APIError.invalid("Survey “\(survey.name)” has no version \(submission.surveyVersion); fetch the survey again.")
        }
        let answers = try AnswerValidator.validate(submission.answers, against: try SurveyCatalog.document(of: version))

        let draft = ResponseRecorder.Draft(
            participantID: participantID, studyID: participant.$study.id, surveyID: surveyID,
            surveyVersion: version.version, kind: .esm, beepID: try beep?.requireID(), volunteered: beep == nil,
            idempotencyKey: submission.idempotencyKey, startedAt: submission.startedAt, submittedAt: submission.submittedAt,
            receivedAt: now, delaySeconds: beep.map { submission.startedAt.timeIntervalSince($0.sentAt ?? $0.scheduledAt) },
            surveyTimings: submission.timings.isEmpty
                ? nil : String(decoding: try WireCoding.makeEncoder().encode(submission.timings), as: UTF8.self))
        do {
            let response = try await db.transaction { db in
                if let beep {
                    // Of two racing uploads for one beep, the unique beep_id of responses lets one win.
                    try await Beep.query(on: db)
                        .filter(\.$id == beep.requireID()).filter(\.$status == .sent)
                        .set(\.$status, to: .answered).set(\.$answeredAt, to: now).update()
                }
                return try await ResponseRecorder.record(draft, answers: answers, context: submission.context, on: db)
            }
            return Outcome(receipt: try receipt(of: response), created: true)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // The same key arrived twice at once, or the beep was answered meanwhile.
            if let existing = try await existingResponse(participantID: participantID, key: submission.idempotencyKey, on: db) {
                return Outcome(receipt: try receipt(of: existing), created: false)
            }
            throw APIError(.beepNotAnswerable, "This beep has already been answered.")
        }
    }

    private static func existingResponse(participantID: UUID, key: String, on db: any Database) async throws -> SurveyResponse? {
        try await SurveyResponse.query(on: db)
            .filter(\.$participant.$id == participantID).filter(\.$idempotencyKey == key).first()
    }

    private static func receipt(of response: SurveyResponse) throws -> ResponseReceipt {
        ResponseReceipt(responseID: try response.requireID(), volunteered: response.volunteered, delaySeconds: response.delaySeconds)
    }

    /// The beep a response answers: the named one (which must be this participant's, delivered,
    /// and not answered, ignored or expired), or else the one awaiting an answer, if any — but only
    /// if it was sent before the participant started answering: an answer begun earlier (and
    /// uploaded late, from an offline phone) was not a reply to it.
    private static func answerableBeep(
        _ beepID: UUID?, startedAt: Date, participantID: UUID, on db: any Database, now: Date
    ) async throws -> Beep? {
        guard let beepID else {
            guard let pending = try await ParticipantStatusService.pendingBeep(of: participantID, on: db, now: now),
                  (pending.sentAt ?? pending.scheduledAt) <= startedAt
            else { return nil }
            return pending
        }
        guard let beep = try await Beep.find(beepID, on: db), beep.$participant.id == participantID else {
            throw APIError.notFound("There is no beep \(beepID.uuidString.lowercased()) for you.")
        }
        switch beep.status {
        case .sent:
            if let expiresAt = beep.expiresAt, expiresAt <= now {
                throw APIError(.beepNotAnswerable, "This beep expired at \(WireCoding.string(from: expiresAt)).")
            }
            return beep
        case .answered:
            throw APIError(.beepNotAnswerable, "This beep has already been answered.")
        case .expired, .missed:
            throw APIError(.beepNotAnswerable, "This beep can no longer be answered: a newer beep has replaced it.")
        case .ignored:
            throw APIError(.beepNotAnswerable, "This beep was reported as ignored.")
        case .pending, .sending, .failed, .cancelled:
            throw APIError(.beepNotAnswerable, "This beep has not been delivered, so it cannot be answered.")
        }
    }

    private static func survey(for submission: ResponseSubmission, beep: Beep?, studyID: UUID, on db: any Database) async throws -> Survey {
        if let surveyID = submission.surveyID ?? beep?.$survey.id {
            guard let survey = try await Survey.find(surveyID, on: db), survey.$study.id == studyID, survey.kind == .esm else {
                throw APIError.notFound("There is no survey \(surveyID.uuidString.lowercased()) in your study.")
            }
            return survey
        }
        guard let survey = try await SurveyCatalog.defaultExperienceSurvey(of: studyID, on: db) else {
            throw APIError.notFound("Your study has no survey to answer.")
        }
        return survey
    }
}
