import MomentaryCore
import Vapor

/// Turns every error into the API's JSON error body `{"error": {"code", "message"}}` with the right
/// status, so no caller ever sees an HTML page or a stack trace. Unexpected errors are logged and
/// reported as a 500 without internal detail.
struct ErrorBodyMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch is RouteNotFound where !AllowedMethods.at(request.url.path, in: request.application.routes).isEmpty {
            // The path exists, only not for this method.
            let allowed = AllowedMethods.at(request.url.path, in: request.application.routes)
            let response = try WireBody.response(APIErrorBody(code: .methodNotAllowed, message:
                "\(request.method.rawValue) is not allowed on \(request.url.path); use \(allowed.joined(separator: " or "))."),
                status: .methodNotAllowed)
            response.headers.replaceOrAdd(name: .allow, value: allowed.joined(separator: ", "))
            return response
        } catch {
            var (status, detail) = Self.describe(error)
            if status.code >= 500 {
                request.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            if let error = error as? APIError {
                detail.message = error.message(for: request.headers.first(name: .acceptLanguage).map(LanguageTag.preferences(fromAcceptLanguage:)) ?? [])
            }
            let response = try WireBody.response(APIErrorBody(error: detail), status: status)
            if status == .serviceUnavailable && !(error is APIError) {
                response.headers.replaceOrAdd(name: .retryAfter, value: String(StorageUnavailability.retryAfterSeconds))
            }
            if let abort = error as? any AbortError {
                for (name, value) in abort.headers where name.lowercased() != "content-type" {
                    response.headers.replaceOrAdd(name: name, value: value)
                }
            }
            return response
        }
    }

    static func describe(_ error: any Error) -> (HTTPResponseStatus, APIErrorBody.Detail) {
        switch error {
        case let error as APIError:
            return (error.status, .init(code: error.code, message: error.message, field: error.field))
        case let error as DecodingError:
            return (.badRequest, .init(code: "bad_request", message: DecodingErrorDescription.sentence(for: error)))
        case let error as APIValidationError:
            return (HTTPResponseStatus(statusCode: error.code.httpStatus),
                    .init(code: error.code.rawValue, message: error.message, field: error.field))
        case let error as AnswerValidationFailure:
            return (.unprocessableEntity, .init(
                code: APIErrorCode.validationFailed.rawValue, message: error.description,
                questionID: error.errors.first?.questionID))
        case let problem as StreamBatchProblem:
            return (.unprocessableEntity, .init(
                code: APIErrorCode.validationFailed.rawValue, message: problem.message, line: problem.line, column: problem.column))
        case let error as SignallingSettingsError:
            return (.unprocessableEntity, .init(code: APIErrorCode.validationFailed.rawValue, message: error.description))
        case let error as any AbortError:
            return (error.status, .init(code: code(for: error.status), message: error.reason))
        case let error where StorageUnavailability.covers(error):
            return (.serviceUnavailable, .init(
                code: APIErrorCode.serviceUnavailable.rawValue,
                message: "The server cannot store or read data just now; nothing from this request was kept. Send it again in a minute."))
        default:
            return (.internalServerError, .init(code: "internal_error", message: "Something went wrong on the server; it has been logged."))
        }
    }

    static func code(for status: HTTPResponseStatus) -> String {
        switch status.code {
        case 400: "bad_request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not_found"
        case 405: "method_not_allowed"
        case 409: "conflict"
        case 413: "payload_too_large"
        case 408: "request_timeout"
        case 415: "unsupported_media_type"
        case 422: "validation_failed"
        case 429: "too_many_requests"
        default: status.code >= 500 ? "internal_error" : "bad_request"
        }
    }
}
