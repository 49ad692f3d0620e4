import Foundation
import NIOCore
import Vapor
import VaporTesting

/// A browser stand-in for website tests: keeps the session cookie and the page's CSRF token.
struct WebClient {
    let app: Application
    var cookie: String?
    var csrf: String?
    /// Sent as `X-Forwarded-For`: the client address when the peer is a trusted proxy.
    var forwardedFor: String?
    /// Sent as `X-Forwarded-Proto`: how the client reached the proxy.
    var forwardedProto: String?

    init(_ app: Application) { self.app = app }

    /// What to send as the `_csrf` field.
    enum CSRF { case fromPage, missing, wrong }

    mutating func get(_ path: String) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        if let cookie { headers.add(name: .cookie, value: cookie) }
        if let forwardedFor { headers.add(name: .xForwardedFor, value: forwardedFor) }
        if let forwardedProto { headers.add(name: "X-Forwarded-Proto", value: forwardedProto) }
        let response = try await app.testing().sendRequest(.GET, path, headers: headers)
        remember(response)
        return response
    }

    mutating func post(_ path: String, _ fields: [(String, String)] = [], csrf: CSRF = .fromPage) async throws -> TestingHTTPResponse {
        var fields = fields
        switch csrf {
        case .fromPage: fields.append(("_csrf", self.csrf ?? ""))
        case .missing: break
        case .wrong: fields.append(("_csrf", "not-the-token-0123456789abcdefghijk"))
        }
        var headers = HTTPHeaders()
        headers.contentType = .urlEncodedForm
        if let cookie { headers.add(name: .cookie, value: cookie) }
        if let forwardedFor { headers.add(name: .xForwardedFor, value: forwardedFor) }
        if let forwardedProto { headers.add(name: "X-Forwarded-Proto", value: forwardedProto) }
        let body = fields.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        let response = try await app.testing().sendRequest(.POST, path, headers: headers, body: ByteBuffer(string: body))
        remember(response)
        return response
    }

    /// Opens the sign-in page (for a session and token), then signs in.
    mutating func signIn(_ email: String, password: String = WebsiteWorld.password) async throws -> TestingHTTPResponse {
        _ = try await get("/signin")
        return try await post("/signin", [("email", email), ("password", password)])
    }

    private mutating func remember(_ response: TestingHTTPResponse) {
        if let setCookie = response.headers.first(name: .setCookie), let pair = setCookie.split(separator: ";").first {
            // An emptied value is how the server ends a session (base64 ids may themselves end in "=").
            let value = pair.drop { $0 != "=" }.dropFirst()
            cookie = value.isEmpty ? nil : String(pair)
        }
        let body = response.body.string
        if let range = body.range(of: #"name="_csrf" value=""#) {
            csrf = String(body[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~[]")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
