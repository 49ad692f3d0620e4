import Fluent
import Vapor

/// Lets through requests bearing a live personal access token, as the researcher it acts for
/// (narrowed by the token), and records every use in the audit log, allowed or not.
/// The token a research API request came with.
struct AccessTokenKey: StorageKey {
    typealias Value = AccessToken
}

struct ResearchAPIAuthenticator: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let secret = request.headers.bearerAuthorization?.token,
              let (researcher, token) = try await AccessTokens.authenticate(secret, on: request.db, now: request.now) else {
            try await AuditLog.record("research API", researcher: (nil, nil), request: request, outcome: "401 no valid token")
            throw Abort(.unauthorized, headers: ["WWW-Authenticate": "Bearer realm=\"momentary research API\""],
                        reason: "Send a live personal access token: Authorization: Bearer mom_… (made on the website's account page or with momentary tokens create).")
        }
        request.storage[SignedInResearcherKey.self] = researcher
        request.storage[AccessTokenKey.self] = token
        let action = "research API (token “\(token.name)”)"
        do {
            let response = try await next.respond(to: request)
            try await AuditLog.record(action, researcher: (researcher.id, researcher.email), request: request, outcome: String(response.status.code))
            return response
        } catch {
            let status = (error as? any AbortError)?.status ?? .internalServerError
            try? await AuditLog.record(action, researcher: (researcher.id, researcher.email), request: request, outcome: String(status.code))
            throw error
        }
    }
}
