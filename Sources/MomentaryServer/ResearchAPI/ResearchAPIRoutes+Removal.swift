import Fluent
import Vapor

/// Deleting a participant's data, erasing a participant and restricting an invitation code through
/// the API: the website's buttons, by the same services and permissions, with the same
/// confirmation asked for in the body (`"confirm": true`), since nothing brings the data back.
extension ResearchAPIRoutes {
    private struct Confirmation: Decodable {
        let confirm: Bool?
        let history: String?
    }

    /// `{"confirm": true}`: deletes every response, photo and sensor batch the participant sent
    /// (and their replies to messages); the participant and their beeps stay.
    func deleteData(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .deleteData)
        let participant = try await participant(labelled: request.parameters.get("label"), in: study, on: request.db)
        let body = try StrictBody.decode(Confirmation.self, from: request, allowed: ["confirm"])
        guard body?.confirm == true else {
            throw Abort(.unprocessableEntity, reason: "Nothing was deleted: send {\"confirm\": true} to delete this participant's responses, photos and sensor data for good.")
        }
        let blobs = BlobStore(dataDirectory: request.application.momentaryConfiguration.dataDirectory)
        let deleted = try await ParticipantAdministration.deleteSentData(of: participant, blobs: blobs, on: request.db)
        let researcherID = try request.researcher.id, participantID = try participant.requireID()
        request.logger.notice("Researcher \(researcherID) deleted \(deleted) responses of participant \(participantID) through the API")
        return try WireBody.response(["deleted_responses": deleted])
    }

    /// `{"history": "keep" | "delete", "confirm": true}`: erases everything that identifies the
    /// participant, keeping an anonymous history of their beeps or not (an erased participant's
    /// history may still be deleted).
    func erase(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .deleteData)
        let participant = try await participant(labelled: request.parameters.get("label"), in: study, allowingErased: true, on: request.db)
        let body = try StrictBody.decode(Confirmation.self, from: request, allowed: ["history", "confirm"])
        guard let history = body?.history.flatMap(ParticipantAdministration.ErasureHistory.init(rawValue:)) else {
            throw Abort(.unprocessableEntity, reason: "Nothing was erased: send \"history\": \"keep\" to keep an anonymous history of the participant's beeps, or \"delete\" for none.")
        }
        guard body?.confirm == true else {
            throw Abort(.unprocessableEntity, reason: "Nothing was erased: send \"confirm\": true to erase everything identifying this participant for good.")
        }
        let participantID = try participant.requireID()
        let blobs = BlobStore(dataDirectory: request.application.momentaryConfiguration.dataDirectory)
        try await ParticipantAdministration.erase(participant, history: history, blobs: blobs, on: request.db, now: request.now)
        let researcherID = try request.researcher.id
        request.logger.notice("Researcher \(researcherID) erased participant \(participantID) (history: \(history.rawValue)) through the API")
        return try WireBody.response(["erased": history.rawValue])
    }

    /// Restricts an invitation code: its participant, if any, stops taking part (no beeps, no surveys).
    func restrictInvitee(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .restrictInvitees)
        let code = (request.parameters.get("code") ?? "").uppercased()
        try await InviteeRoutes.requireCode(code, of: study, on: request.db)
        let invitee = try await InviteeService.restrict(code: code, on: request.db, now: request.now)
        return try WireBody.response(["code": invitee.code, "status": invitee.status.rawValue])
    }
}
