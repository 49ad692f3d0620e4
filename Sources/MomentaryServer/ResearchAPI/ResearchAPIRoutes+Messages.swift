import MomentaryCore
import Vapor

extension ResearchAPIRoutes {
    /// `{"texts": {"en": "…", "de": "…"}, "participant": "BCD23"}`, or a filter as the participants
    /// list takes it (`q`, `status`, `quiet`) instead of `participant`; `text` alone serves a study
    /// in one language. The same checks as the website's messages page; with an Idempotency-Key a
    /// retried call sends nothing more and answers 200 with the first sending.
    func sendMessage(_ request: Request) async throws -> Response {
        let study = try await request.study(requiring: .messageParticipants)
        struct Body: Decodable { let text: String?; let texts: [String: String]?; let participant: String?; let q: String?; let status: String?; let quiet: Int? }
        guard let body = try StrictBody.decode(Body.self, from: request, allowed: ["text", "texts", "participant", "q", "status", "quiet"]) else {
            throw Abort(.badRequest, reason: "Send {\"texts\": {\"<language>\": \"…\"}, \"participant\": \"<label>\"}; the body is missing.")
        }
        let key = try IdempotencyKeyHeader.read(request, required: false, for: "this call")
        if body.text != nil, body.texts != nil { throw Abort(.badRequest, reason: "Give “text” or “texts”, not both.") }
        if body.participant != nil, body.q != nil || body.status != nil || body.quiet != nil {
            throw Abort(.badRequest, reason: "Give “participant” or a filter (“q”, “status”, “quiet”), not both.")
        }
        if body.text != nil, study.languages.count > 1 {
            throw Abort(.unprocessableEntity, reason: "The study is in \(study.languages.joined(separator: ", ")): give “texts” with a text for each.")
        }
        let texts = body.texts ?? body.text.map { [study.defaultLanguage: $0] } ?? [:]
        let checked = MessageService.checkedTexts(texts, languages: study.languages)
        guard let text = checked.text else {
            throw Abort(.unprocessableEntity, reason: checked.refusals.map(\.message).joined(separator: " "))
        }
        let audience: MessageAudience
        if let label = body.participant {
            audience = .participant(label.uppercased())
        } else {
            let list = try ParticipantRoutes.listQuery(ParticipantRoutes.ListQuery(q: body.q, status: body.status, quiet: body.quiet.map(String.init)))
            audience = MessageAudience(list: list)
        }
        do {
            let sent = try await MessageService.send(text, to: audience, in: study, by: try request.researcher.email, requestKey: key, now: request.now, on: request.db)
            if sent.created { request.application.signalling.notifyScheduleChanged() }
            struct Answer: Encodable { let send_id: String; let recipients: Int; let without_push: Int; let repeated: Bool }
            return try WireBody.response(
                Answer(send_id: sent.sendID.uuidString.lowercased(), recipients: sent.recipients, without_push: sent.withoutPush, repeated: !sent.created),
                status: sent.created ? .created : .ok)
        } catch let refusal as MessageService.Refusal {
            throw Abort(.unprocessableEntity, reason: refusal.message)
        }
    }
}
