import Vapor

/// Headers every answer carries, pages, downloads, API and errors alike: no MIME sniffing, no
/// framing (clickjacking), no referrer leaving the site, and a Content-Security-Policy that allows
/// no script from anywhere but this server. Routes may set a stricter policy of their own (the
/// participant web app does); it is kept. In production, browsers are told to use https only.
struct SecurityHeadersMiddleware: AsyncMiddleware {
    /// The researcher website's policy: no inline script or style (its one stylesheet is
    /// `/website.css`), nothing loaded from elsewhere.
    static let defaultPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    let isProduction: Bool

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        let headers = [
            ("Content-Security-Policy", Self.defaultPolicy), ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin"),
        ]
        for (name, value) in headers where !response.headers.contains(name: name) {
            response.headers.replaceOrAdd(name: name, value: value)
        }
        if isProduction {
            response.headers.replaceOrAdd(name: "Strict-Transport-Security", value: "max-age=31536000")
        }
        return response
    }
}
