import Vapor

/// Refuses every form post whose `_csrf` field does not match the session's token, so another site
/// cannot make a signed-in researcher's browser act for it.
struct CSRFMiddleware: AsyncMiddleware {
    /// The largest form the website accepts (a survey document is the largest there is).
    static let maximumFormBytes = 1 << 20

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.method == .POST { try await check(request) }
        let response = try await next.respond(to: request)
        // A visitor's sign-in form got a new token: it goes back with the form as a cookie.
        if let token = request.storage[NewCSRFCookieKey.self] {
            response.cookies[WebSession.csrfCookieName] = HTTPCookies.Value(
                string: token, path: SiteRoute.signIn.path(), isSecure: request.application.momentaryConfiguration.environmentName == "production",
                isHTTPOnly: true, sameSite: .strict)
        }
        return response
    }

    private func check(_ request: Request) async throws {
        // Middleware runs before the route collects the body, so a form larger than the first
        // network read would otherwise look as if it had no token. Collecting here also sets the
        // size limit for every website form (Vapor's route default is 16 KB).
        let tooLarge = Abort(.payloadTooLarge, reason: "This form is larger than the website accepts (\(Self.maximumFormBytes / 1024) KB). Texts have limits shown beside their fields: go back, shorten the text and save again.")
        let body: ByteBuffer?
        do {
            body = try await request.body.collect(max: Self.maximumFormBytes).get()
        } catch let error as any AbortError where error.status == .payloadTooLarge {
            throw tooLarge
        }
        // A body that arrived whole was not measured by `collect`.
        if let body, body.readableBytes > Self.maximumFormBytes { throw tooLarge }
        let expected = WebSession.expectedCSRFToken(for: request)
        let sent = try? request.content.get(String.self, at: WebSession.csrfField)
        guard let expected, let sent, Self.constantTimeEqual(Array(expected.utf8), Array(sent.utf8)) else {
            throw Abort(.forbidden, reason: "This form has expired or did not come from this site. Go back, reload the page and try again.")
        }
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
