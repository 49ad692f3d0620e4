import Vapor

/// Refuses every form post whose `_csrf` field does not match the session's token, so another site
/// cannot make a signed-in researcher's browser act for it.
struct CSRFMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.method == .POST else { return try await next.respond(to: request) }
        let expected = request.session.data[WebSession.csrfKey]
        let sent = try? request.content.get(String.self, at: WebSession.csrfField)
        guard let expected, let sent, Self.constantTimeEqual(Array(expected.utf8), Array(sent.utf8)) else {
            throw Abort(.forbidden, reason: "This form has expired or did not come from this site. Go back, reload the page and try again.")
        }
        return try await next.respond(to: request)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
