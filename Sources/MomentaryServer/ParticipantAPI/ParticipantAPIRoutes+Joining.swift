import Fluent
import MomentaryCore
import Vapor

/// Handlers a person reaches before they take part: joining a study and what the app needs to.
extension ParticipantAPIRoutes {
    func registerParticipant(_ request: Request) async throws -> Response {
        try await limits.admitRegistration(from: ClientAddress.of(request), now: timeSource.now())
        var body = try WireBody.decode(RegistrationRequest.self, from: request)
        // The key may come as the header passive uploads use, or in the body as responses carry it.
        if let header = request.headers.first(name: APIRoute.idempotencyKeyHeader) {
            guard body.idempotencyKey == nil || body.idempotencyKey == header else {
                throw APIError(.badRequest, "The \(APIRoute.idempotencyKeyHeader) header and idempotency_key differ; send one key.", field: "idempotency_key")
            }
            body.idempotencyKey = header
        }
        try await limits.checkStudy(body.study, now: timeSource.now())
        let response = try await RegistrationService.register(body, on: request.db, now: timeSource.now())
        await limits.countRegistration(in: body.study, now: timeSource.now())
        return try WireBody.response(response, status: .created)
    }

    func studyInfo(_ request: Request) async throws -> Response {
        let slug = request.parameters.get("slug") ?? ""
        return try WireBody.response(try await StudyInfoService.info(slug: slug, preferences: try request.preferredLanguages(), on: request.db))
    }

    func checkInvitation(_ request: Request) async throws -> Response {
        try await limits.admitInvitationCheck(from: ClientAddress.of(request), now: timeSource.now())
        let slug = request.parameters.get("slug") ?? ""
        guard let study = try await Study.query(on: request.db).filter(\.$slug == slug).first() else {
            throw APIError(.studyNotFound, "There is no study “\(slug.prefix(40))”.")
        }
        let code = request.parameters.get("code") ?? ""
        guard !code.isEmpty, code.count <= 64 else {
            throw APIError.invalid("The invitation code must be 1–64 characters.", field: "invitation_code")
        }
        _ = try await RegistrationService.usableInvitee(code, study: study, on: request.db)
        return Response(status: .noContent)
    }

    func webPushKey(_ request: Request) async throws -> Response {
        guard let key = request.application.webPushPublicKey else {
            throw APIError.notFound("Web Push is not configured on this server, so the app cannot receive notifications.")
        }
        return try WireBody.response(WebPushKey(publicKey: key))
    }
}
