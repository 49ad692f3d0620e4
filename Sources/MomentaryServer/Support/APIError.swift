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
    /// For a refusal a participant reads: its catalogue key and values, so `ErrorBodyMiddleware`
    /// can say it in the language the request asks for (`Accept-Language`); `message` is English.
    var words: (key: String, values: [String: String])?

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

    /// A refusal a participant reads, worded by the app's catalogues (`api_error.*`).
    init(_ code: APIErrorCode, words key: String, _ values: [String: String] = [:], field: String? = nil) {
        self.init(code, AppCatalogues.text(key, language: "en", values), field: field)
        words = (key, values)
    }

    /// This error telling the caller when to try again: `Retry-After`, in whole seconds (at least
    /// one). Every "too many requests" and "not just now" refusal says it the same way.
    func retryingAfter(seconds: Int) -> APIError {
        var error = self
        error.headers.replaceOrAdd(name: .retryAfter, value: String(max(1, seconds)))
        return error
    }

    /// The message in the language `preferences` ask for, where the error has catalogue words.
    func message(for preferences: [String]) -> String {
        guard let words, let language = LanguageTag.match(preferences, among: AppLanguages.supported) else { return message }
        return AppCatalogues.text(words.key, language: language, words.values)
    }
}
