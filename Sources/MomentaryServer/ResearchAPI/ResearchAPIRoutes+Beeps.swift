import Fluent
import MomentaryCore
import Vapor

/// `POST /api/v1/research/studies/{slug}/participants/{label}/beeps`: another system (a
/// wearable's server, a lab session, a chatbot) beeps one participant now.
extension ResearchAPIRoutes {
    struct TriggerBody: Decodable {
        let survey: String?
        let answerWindowMinutes: Int?
        let respectHours: Bool?

        static let fields = ["survey", "answer_window_minutes", "respect_hours"]
        enum CodingKeys: String, CodingKey {
            case survey
            case answerWindowMinutes = "answer_window_minutes"
            case respectHours = "respect_hours"
        }
    }

    struct TriggeredBeep: Encodable {
        /// Lower case, as in the exports.
        let beepID: String
        let participant: String
        let survey: String?
        let origin: String
        let status: String
        let outcome: String?
        let reason: String?
        let scheduledAt: Date
        let expiresAt: Date?
        let repeated: Bool

        enum CodingKeys: String, CodingKey {
            case beepID = "beep_id", participant, survey, origin, status, outcome, reason
            case scheduledAt = "scheduled_at", expiresAt = "expires_at", repeated
        }
    }

    func triggerBeep(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .sendTestBeep)
        guard request.storage[AccessTokenKey.self]?.triggersBeeps == true else {
            throw Abort(.forbidden, reason: "This token may not beep participants: make one with “May beep participants” ticked on the website, or with momentary tokens create --trigger-beeps.")
        }
        let participant = try await participant(labelled: request.parameters.get("label"), in: study, on: request.db)
        let body = try StrictBody.decode(TriggerBody.self, from: request, allowed: TriggerBody.fields)
        var asked = APIBeepRequest(respectHours: body?.respectHours ?? true, requestKey: try IdempotencyKeyHeader.read(request, required: false, for: "this call"))
        if let name = body?.survey {
            guard let survey = try await Survey.query(on: request.db).filter(\.$study.$id == study.requireID())
                .filter(\.$name == name).filter(\.$kind == .esm).filter(\.$active == true).first() else {
                throw Abort(.unprocessableEntity, reason: "survey: the study has no beep survey “\(name.prefix(80))” in use.")
            }
            asked.surveyID = try survey.requireID()
        }
        if let minutes = body?.answerWindowMinutes {
            if let problem = AnswerWindow(answerWindowMinutes: minutes).problems().first(where: { $0.field == .answerWindow }) {
                throw Abort(.unprocessableEntity, reason: "answer_window_minutes: " + problem.message)
            }
            asked.answerWindowMinutes = minutes
        }
        guard let dispatcher = request.application.signalling.dispatcher else {
            throw Abort(.serviceUnavailable, reason: "Signalling is not running in this server, so no beep can be sent.")
        }
        let sent: (beepID: UUID, repeated: Bool)
        do {
            sent = try await dispatcher.sendAPIBeep(asked, to: participant, in: study)
        } catch let refusal as APIBeepError {
            switch refusal {
            case .participantNotTakingPart, .studyArchived:
                throw Abort(.conflict, reason: refusal.description)
            case .limitReached(_, let retryAfter):
                throw Abort(.tooManyRequests, headers: [HTTPHeaders.Name.retryAfter.description: String(retryAfter)], reason: refusal.description)
            case .notRecorded:
                throw Abort(.serviceUnavailable, reason: refusal.description)
            }
        }
        guard let beep = try await Beep.find(sent.beepID, on: request.db) else {
            throw Abort(.notFound, reason: "The beep was deleted meanwhile.")
        }
        let surveyName = try await beep.$survey.get(on: request.db)?.name
        let answer = TriggeredBeep(
            beepID: sent.beepID.uuidString.lowercased(), participant: participant.label ?? "", survey: surveyName, origin: beep.origin.rawValue,
            status: beep.status.rawValue, outcome: beep.deliveryOutcome, reason: beep.deliveryReason,
            scheduledAt: beep.scheduledAt, expiresAt: beep.expiresAt, repeated: sent.repeated)
        return try WireBody.response(answer, status: sent.repeated ? .ok : .created)
    }
}
