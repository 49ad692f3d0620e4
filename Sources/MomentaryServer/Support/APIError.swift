import MomentaryCore
import Vapor

/// An error the API reports to its caller: an HTTP status, a stable machine code and one clear sentence.
struct APIError: AbortError, Sendable {
    let status: HTTPResponseStatus
    let code: String
    let message: String
    /// The request field at fault (a JSON path), when known.
    var field: String?
    var headers: HTTPHeaders = [:]

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

    /// A value that decoded but does not make sense (422 `validation_failed`).
    static func invalid(_ message: String, field: String? = nil) -> APIError {
        var error = APIError(.unprocessableEntity, code: "validation_failed", message)
        error.field = field
        return error
    }

    init(_ code: APIErrorCode, _ message: String, field: String? = nil) {
        self.init(HTTPResponseStatus(statusCode: code.httpStatus), code: code.rawValue, message)
        self.field = field
    }
}
