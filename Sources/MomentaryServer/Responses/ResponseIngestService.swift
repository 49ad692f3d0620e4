import Fluent
import Foundation
import MomentaryCore

/// Stores a participant's answers (Mappiness `esm_answers`). Idempotent by key: a retried upload
/// returns the first receipt and stores nothing new. A response without a beep answers the beep
/// awaiting an answer if there is one; otherwise it is volunteered.
///
/// Everything that reads or judges the submission happens here, per request and concurrently;
/// only the inserts go to the shared `ResponseWriter`, which commits many responses at once.
enum ResponseIngestService {
    struct Outcome: Sendable {
        let receipt: ResponseReceipt
        /// False when the idempotency key had been seen before.
        let created: Bool
    }

    static func submit(
        _ submission: ResponseSubmission, from participant: AuthenticatedParticipant, ingest: ResponseIngest, on db: any Database, now: Date
    ) async throws -> Outcome {
        try submission.validate()
        let participantID = participant.id
        let item: ResponseWriter.Item
        do {
            item = try await prepare(submission, from: participant, versions: ingest.versions, on: db, now: now)
        } catch let error as APIError {
            // A retried upload gets its first receipt even if its beep has been answered (by that
            // first copy) or the study's surveys have changed since. Looked up only when needed,
            // so a first upload does not pay for it.
            if let existing = try await existingResponse(participantID: participantID, key: submission.idempotencyKey, on: db) {
                return Outcome(receipt: try receipt(of: existing), created: false)
            }
            throw error
        }
        return try await ingest.writer.submit(item)
    }

    /// Finds the beep and the survey version, and validates the answers against it.
    private static func prepare(
        _ submission: ResponseSubmission, from participant: AuthenticatedParticipant, versions: ParsedSurveyVersions, on db: any Database, now: Date
    ) async throws -> ResponseWriter.Item {
        let participantID = participant.id
        let studyID = participant.studyID
        let beep = try await answerableBeep(submission.beepID, startedAt: submission.startedAt, participantID: participantID, on: db, now: now)
        let surveyID = try await surveyID(for: submission, beep: beep, studyID: studyID, on: db)
        guard let version = try await versions.entry(surveyID: surveyID, version: submission.surveyVersion, on: db),
              version.studyID == studyID, version.kind == .esm
        else {
            guard let survey = try await Survey.find(surveyID, on: db), survey.$study.id == studyID, survey.kind == .esm else {
                throw APIError.notFound("There is no survey \(surveyID.uuidString.lowercased()) in your study.")
            }
            throw APIError.invalid("Survey “\(survey.name)” has no version \(submission.surveyVersion); fetch the survey again.")
        }
        let answers = try AnswerValidator.validate(submission.answers, against: version.document)

        let draft = ResponseRecorder.Draft(
            participantID: participantID, studyID: studyID, surveyID: surveyID,
            surveyVersion: submission.surveyVersion, kind: .esm, beepID: beep?.id, volunteered: beep == nil,
            idempotencyKey: submission.idempotencyKey, startedAt: submission.startedAt, submittedAt: submission.submittedAt,
            receivedAt: now, delaySeconds: beep.map { submission.startedAt.timeIntervalSince($0.deliveredAt) },
            surveyTimings: submission.timings.isEmpty
                ? nil : String(decoding: try WireCoding.makeEncoder().encode(submission.timings), as: UTF8.self))
        return ResponseWriter.Item(draft: draft, answers: answers, context: submission.context, beepNamed: submission.beepID != nil)
    }

    static func existingResponse(participantID: UUID, key: String, on db: any Database) async throws -> SurveyResponse? {
        try await SurveyResponse.query(on: db)
            .filter(\.$participant.$id == participantID).filter(\.$idempotencyKey == key).first()
    }

    static func receipt(of response: SurveyResponse) throws -> ResponseReceipt {
        ResponseReceipt(responseID: try response.requireID(), volunteered: response.volunteered, delaySeconds: response.delaySeconds)
    }

    /// The beep a response answers: the named one (which must be this participant's, delivered,
    /// and not answered, ignored or expired), or else the one awaiting an answer, if any — but only
    /// if it was sent before the participant started answering: an answer begun earlier (and
    /// uploaded late, from an offline phone) was not a reply to it.
    private static func answerableBeep(
        _ beepID: UUID?, startedAt: Date, participantID: UUID, on db: any Database, now: Date
    ) async throws -> ParticipantStatusService.AwaitedBeep? {
        guard let beepID else {
            guard let pending = try await ParticipantStatusService.pendingBeep(of: participantID, on: db, now: now),
                  pending.deliveredAt <= startedAt
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
            return ParticipantStatusService.AwaitedBeep(
                id: beepID, surveyID: beep.$survey.id, scheduledAt: beep.scheduledAt, sentAt: beep.sentAt, expiresAt: beep.expiresAt)
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

    /// The survey answered: the one named, else the beep's, else the study's default.
    private static func surveyID(for submission: ResponseSubmission, beep: ParticipantStatusService.AwaitedBeep?, studyID: UUID, on db: any Database) async throws -> UUID {
        if let surveyID = submission.surveyID ?? beep?.surveyID {
            return surveyID
        }
        guard let surveyID = try await SurveyCatalog.defaultExperienceSurveyID(of: studyID, on: db) else {
            throw APIError.notFound("Your study has no survey to answer.")
        }
        return surveyID
    }
}
