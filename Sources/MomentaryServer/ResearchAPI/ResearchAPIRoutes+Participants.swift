import Fluent
import MomentaryCore
import Vapor

/// A participant's status and named dates, changed through the API by the same services and
/// permission as on the website's participants page.
extension ResearchAPIRoutes {
    /// The study's participant with this label (codes in any case; imported Beiwe patient ids as
    /// they are): 404 for none, 409 for an erased one unless `allowingErased`.
    func participant(labelled text: String?, in study: Study, allowingErased: Bool = false, on db: any Database) async throws -> Participant {
        let text = (text ?? "").trimmingCharacters(in: .whitespaces)
        let label = BeiweDownloadFolder.isPatientID(text) ? text : text.uppercased()
        guard !label.isEmpty, let participant = try await Participant.query(on: db)
            .filter(\.$study.$id == study.requireID()).filter(\.$label == label).first() else {
            throw Abort(.notFound, reason: "This study has no participant labelled “\(text.prefix(40))”.")
        }
        guard participant.erasedAt == nil || allowingErased else {
            throw Abort(.conflict, reason: "This participant was erased: only an anonymous history of their beeps is kept, and nothing more can be done with it.")
        }
        return participant
    }

    /// `{"status": "participating" | "restricted" | "withdrawn"}`; the participant's beeps follow.
    func changeStatus(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .changeParticipantStatus)
        let participant = try await participant(labelled: request.parameters.get("label"), in: study, on: request.db)
        struct Body: Decodable { let status: String? }
        let asked = try StrictBody.decode(Body.self, from: request, allowed: ["status"])?.status ?? ""
        guard let status = Participant.Status(rawValue: asked) else {
            throw Abort(.unprocessableEntity, reason: "status must be participating, restricted or withdrawn, not “\(asked.prefix(40))”.")
        }
        let reason = status == .restricted ? "the researchers restricted the participant" : "the researchers withdrew the participant"
        try await ParticipantAdministration.setStatus(status, of: participant, reason: reason, on: request.db, now: request.now)
        return try await listed(participant, in: study, on: request)
    }

    /// `{"dates": {"surgery": "2026-12-01", "discharge": null}}`: sets the named dates given (null
    /// or "" clears one), keeps the others, and replans the participant's beeps.
    func changeDates(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .changeParticipantStatus)
        let participant = try await participant(labelled: request.parameters.get("label"), in: study, on: request.db)
        struct Body: Decodable { let dates: [String: String?] }
        guard let body = try StrictBody.decode(Body.self, from: request, allowed: ["dates"]) else {
            throw Abort(.badRequest, reason: "Send {\"dates\": {\"name\": \"YYYY-MM-DD\"}}; the body is missing.")
        }
        let dates: [String: LocalDate]
        do {
            dates = try ParticipantDateService.applying(body.dates.mapValues { $0 ?? "" }, to: participant, study: study)
        } catch let refusal as ParticipantDateService.Refusal {
            throw Abort(.unprocessableEntity, reason: refusal.description)
        }
        try await ParticipantDateService.set(dates, of: participant, on: request.db, now: request.now)
        return try await listed(participant, in: study, on: request)
    }

    /// `{"variables": {"partner_name": "Alex", "baseline": 3.5, "group": null}}`: sets (null clears)
    /// the named variables, the others unchanged; the same checks as the website's form.
    func changeVariables(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .setParticipantVariables)
        let participant = try await participant(labelled: request.parameters.get("label"), in: study, on: request.db)
        struct Body: Decodable { let variables: [String: JSONValue] }
        guard let body = try StrictBody.decode(Body.self, from: request, allowed: ["variables"]) else {
            throw Abort(.badRequest, reason: "Send {\"variables\": {\"name\": value}}; the body is missing.")
        }
        do {
            try await ParticipantVariableStore.set(body.variables, of: participant, in: study, on: request.db)
        } catch let refusal as ParticipantVariables.Refusal {
            throw Abort(.unprocessableEntity, reason: refusal.description)
        }
        return try await listed(participant, in: study, on: request)
    }

    /// The participant as the participants list shows them.
    private func listed(_ participant: Participant, in study: Study, on request: Request) async throws -> Response {
        let rows = try await participantRows(of: study, where: " AND p.id = \(bind: try participant.requireID())", limit: 1, on: request.db)
        guard let row = rows.first else { throw Abort(.notFound, reason: "The participant was deleted meanwhile.") }
        return try WireBody.response(row)
    }
}
