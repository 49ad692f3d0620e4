import Fluent
import Foundation
import MomentaryCore

/// Registers a participant (Mappiness `register`): checks the study, invitation, consent, settings,
/// push channel and registration answers, then writes everything in one transaction. A refused
/// registration stores nothing and uses up no invitation.
///
/// A registration retried with the same idempotency key (a reply lost on the way) makes no second
/// participant: it answers with the participant the first made and a fresh secret (the first is
/// stored only as a hash), while that participant has not yet signed in and within an hour.
enum RegistrationService {
    /// How long after registering a retry may still be answered with the participant it made.
    static let replayWindow: TimeInterval = 3_600

    private enum Outcome {
        case created(Participant)
        case replayed(Participant)
    }

    static func register(_ request: RegistrationRequest, on db: any Database, now: Date) async throws -> RegistrationResponse {
        try request.validate()
        guard let study = try await Study.query(on: db).filter(\.$slug == request.study).first() else {
            throw APIError(.studyNotFound, "There is no study “\(request.study)”.", field: "study")
        }
        let studyID = try study.requireID()
        guard study.archivedAt == nil else {
            throw APIError(.studyArchived, words: "api_error.study_archived", ["study": study.name], field: "study")
        }
        guard try await StudyReadiness.check(study, on: db).isReady else {
            throw APIError(.studyNotReady, words: "api_error.study_not_ready", ["study": study.name], field: "study")
        }
        let settings = try SignallingPolicy.validate(request.settings, for: study, fieldPrefix: "settings")
        let timeZone = ParticipantTimeZone.resolve(request.timezone, studyDefault: study.defaultTimeZone)
        let language = try study.participantLanguage(request.language)

        let registrationSurvey = try await SurveyCatalog.registrationSurvey(of: studyID, on: db)
        let registrationAnswers = try await validatedRegistrationAnswers(request.registrationAnswers, survey: registrationSurvey, on: db)

        let secret = ParticipantSecret.generate()
        let outcome = try await db.transaction { db -> Outcome in
            try await db.lockStudyForWriting(studyID)
            // Under the study's lock, so two copies of one registration cannot both create.
            if let key = request.idempotencyKey, let earlier = try await Participant.query(on: db)
                .filter(\.$study.$id == studyID).filter(\.$registrationKey == key).first() {
                guard earlier.lastSeenAt == nil, now.timeIntervalSince(earlier.registeredAt) < replayWindow else {
                    throw APIError(.conflict, "This registration was completed and its credentials are in use; register again with a new idempotency key.", field: "idempotency_key")
                }
                earlier.secretHash = SecretHash.of(secret)
                try await earlier.save(on: db)
                return .replayed(earlier)
            }
            let invitee = try await claimInvitation(request.invitationCode, study: study, on: db, now: now)
            let participant = Participant()
            participant.$study.id = studyID
            participant.$invitee.id = try invitee?.requireID()
            participant.label = try await PublicCodes.label(forInvitationCode: invitee?.code, on: db)
            participant.secretHash = SecretHash.of(secret)
            participant.status = .participating
            participant.timeZone = timeZone.identifier
            participant.language = language
            SignallingPolicy.apply(settings, to: participant)
            ParticipantPushFields(request.push).apply(to: participant)
            participant.deviceModel = request.device.model
            participant.deviceOS = request.device.os
            participant.appVersion = request.device.appVersion
            participant.registeredAt = now
            participant.registrationKey = request.idempotencyKey
            participant.registeredLocalDate = WallClock.localDate(of: now, in: timeZone).description
            participant.updatedAt = now
            // Variables the study takes from registration answers (a partner's name, a baseline).
            participant.variables = ParticipantVariables.fromRegistration(registrationAnswers?.answers ?? [], definitions: study.participantVariables)
            try await participant.create(on: db)
            if let arms = study.arms {
                var randomness = SystemRandomNumberGenerator()
                try await ArmAssignment.allocate(
                    participant, arms: arms, answers: registrationAnswers?.answers ?? [], on: db, now: now, using: &randomness)
            }
            try await WebhookOutbox.emit(.participantJoined, subjects: [try participant.requireID()], now: now, on: db)
            // Due for planning from now on, so the dispatcher plans them even if the planning
            // just below fails.
            try await PlanStore.setPlan(try participant.requireID(), plannedThrough: nil, nextPlanAt: now, keepPlannedThrough: true, on: db)

            if let registrationAnswers {
                let draft = ResponseRows.Draft(
                    participantID: try participant.requireID(), studyID: studyID,
                    surveyID: try registrationAnswers.survey.requireID(), surveyVersion: registrationAnswers.version,
                    kind: .registration, beepID: nil, volunteered: false, idempotencyKey: "registration",
                    startedAt: now, submittedAt: now, receivedAt: now, delaySeconds: nil,
                    timeZone: timeZone.identifier, language: language)
                _ = try await ResponseRows.record(draft, answers: registrationAnswers.answers, context: nil, on: db)
            }
            return .created(participant)
        }
        let participant: Participant
        switch outcome {
        case .replayed(let earlier):
            return try await response(for: earlier, secret: secret, study: study, on: db)
        case .created(let created):
            participant = created
        }

        // The rest of today and tomorrow, at once, so a beep due within minutes is not missed.
        do {
            try await BeepPlanner.planNewParticipant(try participant.requireID(), on: db, now: now)
        } catch {
            db.logger.error("Planning the first beeps of participant \(participant.id?.uuidString ?? "?") failed; the signaller will retry: \(String(reflecting: error))")
        }

        return try await response(for: participant, secret: secret, study: study, on: db)
    }

    private static func response(for participant: Participant, secret: String, study: Study, on db: any Database) async throws -> RegistrationResponse {
        let studyID = try study.requireID()
        let language = study.textLanguage(of: participant.language)
        return RegistrationResponse(
            participantID: try participant.requireID(), secret: secret,
            study: StudySummary(slug: study.slug, name: study.text(of: .name, in: language) ?? study.name, scheduling: study.scheduling == .device ? .device : .server),
            schedule: study.scheduling == .device ? try await DeviceSchedule.rules(of: studyID, on: db) : nil,
            surveys: study.scheduling == .device
                ? try await DeviceSchedule.surveys(of: studyID, in: language, on: db) : nil)
    }

    private static func validatedRegistrationAnswers(
        _ answers: [SubmittedAnswer], survey: Survey?, on db: any Database
    ) async throws -> (survey: Survey, version: Int, answers: [ValidatedAnswer])? {
        guard let survey else {
            guard answers.isEmpty else {
                throw APIError.invalid("This study has no registration survey, so registration_answers must be empty.", field: "registration_answers")
            }
            return nil
        }
        let version = try await SurveyCatalog.currentVersion(of: survey, on: db)
        return (survey, version.version, try AnswerValidator.validate(answers, against: try SurveyCatalog.document(of: version)))
    }

    /// Checks and uses up an invitation code inside the registration transaction.
    private static func claimInvitation(_ code: String?, study: Study, on db: any Database, now: Date) async throws -> Invitee? {
        guard let code else {
            if study.invitationOnly {
                throw APIError(.invitationRequired, words: "api_error.invitation_required", field: "invitation_code")
            }
            return nil
        }
        let invitee = try await usableInvitee(code, study: study, on: db)
        invitee.status = .participating
        invitee.updatedAt = now
        try await invitee.save(on: db)
        return invitee
    }

    /// The invitee of a code that may still join the study, or the error that says why not. The
    /// one rule for registration and for the join page's check of a typed code.
    static func usableInvitee(_ code: String, study: Study, on db: any Database) async throws -> Invitee {
        let normalized = code.trimmingCharacters(in: .whitespaces).uppercased()
        guard let invitee = try await Invitee.query(on: db)
            .filter(\.$code == normalized).filter(\.$study.$id == study.requireID()).first()
        else {
            throw APIError(.invitationInvalid, words: "api_error.invitation_unknown", ["code": normalized], field: "invitation_code")
        }
        switch invitee.status {
        case .invited:
            return invitee
        case .participating:
            throw APIError(.invitationInvalid, words: "api_error.invitation_used", ["code": normalized], field: "invitation_code")
        case .restricted:
            throw APIError(.invitationInvalid, words: "api_error.invitation_restricted", ["code": normalized], field: "invitation_code")
        case .withdrawn:
            throw APIError(.invitationInvalid, words: "api_error.invitation_withdrawn", ["code": normalized], field: "invitation_code")
        }
    }
}
