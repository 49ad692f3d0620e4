import Vapor

/// Marks the website's cookies `Secure` when the request came over https (directly in production,
/// or per a trusted proxy's `X-Forwarded-Proto`), so a session cookie set over https is never sent
/// back over plain http. The sessions middleware makes the cookie without seeing the request,
/// hence this step after it.
struct SecureCookieMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        guard ClientAddress.cameOverHTTPS(request) else { return response }
        for (name, var cookie) in response.cookies.all {
            cookie.isSecure = true
            response.cookies[name] = cookie
        }
        return response
    }
}
