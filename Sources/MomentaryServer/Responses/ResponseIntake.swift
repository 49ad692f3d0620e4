import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// Stores a participant's answers (Mappiness `esm_answers`). Idempotent by key: a retried upload
/// returns the first receipt and stores nothing new. A response without a beep answers the beep
/// awaiting an answer if there is one; otherwise it is volunteered.
///
/// Everything that reads or judges the submission happens here, per request and concurrently;
/// only the inserts go to the shared `GroupCommitWriter`, which commits many responses at once.
enum ResponseIntake {
    /// `db` is made only when needed (see `IngestResources.read`): an upload answering the beep
    /// just delivered, in a survey version already parsed, needs none.
    static func submit(
        _ submission: ResponseSubmission, from participant: AuthenticatedParticipant, lookup: UploadLookup,
        ingest: IngestResources, on db: @autoclosure @escaping @Sendable () -> any Database, now: Date
    ) async throws -> IngestOutcome {
        try submission.validate()
        let participantID = participant.id
        let item: ValidatedSubmission
        do {
            item = try await prepare(submission, from: participant, lookup: lookup, ingest: ingest, on: db(), now: now)
        } catch let error as APIError {
            // A retried upload gets its first receipt even if its beep has been answered (by that
            // first copy) or the study's surveys have changed since. Looked up only when needed,
            // so a first upload does not pay for it.
            if let stored = try await ResponseRows.storedReceipt(participantID: participantID, key: submission.idempotencyKey, on: SQLKitStatementRunner(db().sql)) {
                return IngestOutcome(receipt: stored, created: false)
            }
            throw error
        }
        let outcome = try await ingest.writer.submit(item)
        // A follow-up due at once must not wait for the dispatcher's next wake-up.
        if outcome.created, !item.followUps.isEmpty { PlanChanges.mark(on: db()) }
        return outcome
    }

    /// Finds the beep and the survey version, and validates the answers against it.
    private static func prepare(
        _ submission: ResponseSubmission, from participant: AuthenticatedParticipant, lookup: UploadLookup,
        ingest: IngestResources, on db: @autoclosure @escaping @Sendable () -> any Database, now: Date
    ) async throws -> ValidatedSubmission {
        let participantID = participant.id
        let studyID = participant.studyID
        let (beep, surveyID) = try await beepAndSurvey(of: submission, participantID: participantID, lookup: lookup, ingest: ingest, on: db(), now: now)
        guard let version = try await ingest.versions.entry(surveyID: surveyID, version: submission.surveyVersion, on: db()),
              version.studyID == studyID, version.kind == .esm
        else {
            guard let survey = try await Survey.find(surveyID, on: db()), survey.$study.id == studyID, survey.kind == .esm else {
                throw APIError.notFound("There is no survey \(surveyID.uuidString.lowercased()) in your study.")
            }
            throw APIError.invalid("Survey “\(survey.name)” has no version \(submission.surveyVersion); fetch the survey again.")
        }
        let document = version.document
        // Read only for surveys whose conditions name the participant's variables.
        let variables = version.variableNames.isEmpty ? [:] : try await ParticipantVariableStore.values(of: participantID, on: db())
        let answers = try AnswerValidator.validate(submission.answers, against: document, variables: variables)
        if let order = submission.presentedOrder, let issue = document.presentedOrderIssue(order, groups: version.randomizedGroups) {
            throw APIError.invalid("\(issue).", field: "presented_order")
        }

        let draft = ResponseRows.Draft(
            participantID: participantID, studyID: studyID, surveyID: surveyID,
            surveyVersion: submission.surveyVersion, kind: .esm, beepID: beep?.id, volunteered: beep == nil,
            idempotencyKey: submission.idempotencyKey, startedAt: submission.startedAt, submittedAt: submission.submittedAt,
            receivedAt: now, delaySeconds: beep.map { submission.startedAt.timeIntervalSince($0.deliveredAt) },
            timeZone: lookup.timeZone, language: lookup.language,
            surveyTimings: submission.timings.isEmpty
                ? nil : String(decoding: try WireCoding.makeEncoder().encode(submission.timings), as: UTF8.self),
            scores: try document.scoresJSONText(of: answers, scores: version.scores),
            presentedOrder: try submission.presentedOrder.map { try JSONValue.array($0.map(JSONValue.string)).sortedKeysJSONText() })
        var item = ValidatedSubmission(draft: draft, answers: answers, context: submission.context, beepNamed: submission.beepID != nil)
        item.followUps = FollowUpPlanning.followUps(
            of: document, answers: answers, variables: variables, receivedAt: now, timeZone: lookup.timeZone)
        return item
    }

    /// The beep a response answers and the survey answered. The beep: the named one (which must
    /// be this participant's, delivered, and not answered, ignored or expired), or else the one
    /// awaiting an answer, if any — but only if it was sent before the participant started
    /// answering: an answer begun earlier (and uploaded late, from an offline phone) was not a
    /// reply to it. The survey: the one named, else the beep's, else the study's default.
    private static func beepAndSurvey(
        of submission: ResponseSubmission, participantID: UUID, lookup: UploadLookup, ingest: IngestResources,
        on db: @autoclosure @escaping @Sendable () -> any Database, now: Date
    ) async throws -> (ParticipantStatusService.AwaitedBeep?, UUID) {
        let beep: ParticipantStatusService.AwaitedBeep?
        if let beepID = submission.beepID {
            // Usually the beep just delivered, which the authenticator has read already.
            let named = if let latest = lookup.latestSentBeep, latest.id == beepID {
                latest
            } else {
                try await namedBeep(beepID, participantID: participantID, ingest: ingest, on: db())
            }
            beep = try answered(named, by: submission, completionMinutes: lookup.completionMinutes, now: now)
        } else {
            // An answer begun while the beep awaited one answers it, however late it uploads.
            beep = lookup.latestSentBeep?.awaited(at: submission.startedAt).flatMap {
                $0.deliveredAt <= submission.startedAt && finishedInTime(submission, completionMinutes: lookup.completionMinutes) ? $0 : nil
            }
        }
        guard let surveyID = submission.surveyID ?? beep?.surveyID ?? lookup.defaultSurveyID else {
            throw APIError.notFound("Your study has no survey to answer.")
        }
        return (beep, surveyID)
    }

    /// Whether the survey was submitted within the study's time to finish after it was begun.
    private static func finishedInTime(_ submission: ResponseSubmission, completionMinutes: Int) -> Bool {
        submission.submittedAt.timeIntervalSince(submission.startedAt) <= Double(completionMinutes * 60)
    }

    /// How far a phone's clock may run ahead of the server's before its times are refused.
    static let clockTolerance: TimeInterval = 120

    /// The beep the app named, if the answer was begun inside its answer window and finished in
    /// the study's time to finish. The phone's times are trusted within `clockTolerance`: the app
    /// works offline, so an answer begun in time may upload much later and still counts.
    private static func answered(
        _ beep: ParticipantStatusService.AwaitedBeep, by submission: ResponseSubmission, completionMinutes: Int, now: Date
    ) throws -> ParticipantStatusService.AwaitedBeep {
        guard submission.startedAt <= now.addingTimeInterval(clockTolerance) else {
            throw APIError.invalid("started_at lies in the future; check the phone's clock.", field: "started_at")
        }
        guard submission.startedAt >= beep.deliveredAt.addingTimeInterval(-clockTolerance) else {
            throw APIError.invalid(
                "started_at is before the beep reached you (\(WireCoding.string(from: beep.deliveredAt))), so the answer cannot be to it.",
                field: "started_at")
        }
        if let deadline = beep.expiresAt, submission.startedAt > deadline {
            throw APIError(.beepExpired, "This beep expired at \(WireCoding.string(from: deadline)), before you began to answer it.")
        }
        guard finishedInTime(submission, completionMinutes: completionMinutes) else {
            throw APIError(.beepExpired, "This beep's survey had to be finished within \(completionMinutes) minutes of beginning it.")
        }
        return beep
    }

    /// The beep the app named, if this participant's and delivered and not answered, ignored or
    /// missed, when it is not the latest one sent (which the authenticator read already). An
    /// expired beep is returned too: an answer begun before its deadline still answers it. A
    /// plain query of the columns it needs, not the Beep model, which Fluent fills through reflection.
    private static func namedBeep(
        _ beepID: UUID, participantID: UUID, ingest: IngestResources, on db: @autoclosure @escaping @Sendable () -> any Database
    ) async throws -> ParticipantStatusService.AwaitedBeep {
        struct Row: Decodable {
            let participant_id: UUID, status: Beep.Status, survey_id: UUID?, scheduled_at: Date, sent_at: Date?, expires_at: Date?
        }
        guard let beep = try await ingest.read(NamedBeepRead(key: beepID), on: db()).first.map({ try $0.decode(model: Row.self) }),
              beep.participant_id == participantID
        else {
            throw APIError.notFound("There is no beep \(beepID.uuidString.lowercased()) for you.")
        }
        switch beep.status {
        case .sent, .expired:
            return ParticipantStatusService.AwaitedBeep(
                id: beepID, surveyID: beep.survey_id, scheduledAt: beep.scheduled_at, sentAt: beep.sent_at,
                expiresAt: beep.status == .expired ? beep.expires_at ?? beep.sent_at : beep.expires_at)
        case .answered:
            throw APIError(.beepAnswered, "This beep has already been answered.")
        case .missed:
            throw APIError(.beepNotAnswerable, "This beep was never delivered: it fell outside your hours or came too late.")
        case .ignored:
            throw APIError(.beepNotAnswerable, "This beep was reported as ignored.")
        case .pending, .sending, .failed, .cancelled:
            throw APIError(.beepNotAnswerable, "This beep has not been delivered, so it cannot be answered.")
        }
    }

    private struct NamedBeepRead: PreparedRead {
        static let name = "momentary_named_beep"
        static let text = PreparedReadText(query)
        let key: UUID

        static func query(_ beepID: any SQLExpression) -> SQLQueryString {
            "SELECT participant_id, status, survey_id, scheduled_at, sent_at, expires_at FROM beeps WHERE id = \(beepID)"
        }
    }
}
