import Vapor

/// An error the API reports to its caller: an HTTP status, a stable machine code and one clear sentence.
struct APIError: AbortError, Sendable {
    let status: HTTPResponseStatus
    let code: String
    let message: String

    var reason: String { message }

    init(_ status: HTTPResponseStatus, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func badRequest(_ message: String, code: String = "bad_request") -> APIError {
        APIError(.badRequest, code: code, message)
    }

    static func notFound(_ message: String) -> APIError {
        APIError(.notFound, code: "not_found", message)
    }
}
