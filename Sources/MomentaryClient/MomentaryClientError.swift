import Foundation

/// Every failure of a participant-API call, in the terms an app acts on.
public enum MomentaryClientError: Error, Sendable, Hashable {
    /// A 4xx other than those below (400, 409, 413, 415, 422, …): the request itself is wrong.
    /// `code` is the server's machine code (`APIErrorCode` raw value) when it sent one.
    case badRequest(status: Int, code: String?, message: String)
    /// 401, or an authenticated call made without credentials.
    case unauthorized(code: String?, message: String)
    /// 403: e.g. withdrawn participant, invitation refused.
    case forbidden(code: String?, message: String)
    /// 404: unknown beep, study or route.
    case notFound(code: String?, message: String)
    /// 429, with the server's Retry-After in seconds when given.
    case tooManyRequests(retryAfter: TimeInterval?)
    /// 5xx: the server is down or failing, with Retry-After when given.
    case unavailable(status: Int, retryAfter: TimeInterval?)
    /// The request timed out (on the device, or HTTP 408).
    case timeout
    /// The connection dropped while the request was under way; the server may have acted on it.
    case connectionLost
    /// No connection could be made (offline, DNS, refused, TLS).
    case cannotConnect(reason: String)
    /// Something answered, but not what the API answers (not HTTP, wrong status, undecodable body).
    case invalidResponse(reason: String)
    /// The request could not be encoded (e.g. a NaN in the context); no retry can help.
    case invalidRequest(reason: String)
    /// The call was cancelled by the app.
    case cancelled

    /// Whether the very same request can never succeed: a 4xx other than 408 and 429, or a request
    /// that cannot be encoded. An upload that fails this way is set aside, never retried.
    public var isPermanent: Bool {
        switch self {
        case .badRequest, .unauthorized, .forbidden, .notFound, .invalidRequest: true
        case .tooManyRequests, .unavailable, .timeout, .connectionLost, .cannotConnect, .invalidResponse, .cancelled: false
        }
    }

    /// Whether sending the same request again later can help. An invalid response counts as
    /// retryable: it is usually a captive portal or a proxy, not the API.
    public var isRetryable: Bool {
        switch self {
        case .cancelled: false
        default: !isPermanent
        }
    }

    /// How long the server asked us to wait, if it did.
    public var retryAfter: TimeInterval? {
        switch self {
        case .tooManyRequests(let seconds), .unavailable(_, let seconds): seconds
        default: nil
        }
    }

    /// The server's machine code, if it sent one.
    /// The HTTP status the server answered with, when it answered.
    public var httpStatus: Int? {
        switch self {
        case .badRequest(let status, _, _), .unavailable(let status, _): status
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .tooManyRequests: 429
        case .timeout, .connectionLost, .cannotConnect, .invalidResponse, .invalidRequest, .cancelled: nil
        }
    }

    public var serverCode: String? {
        switch self {
        case .badRequest(_, let code, _), .unauthorized(let code, _), .forbidden(let code, _), .notFound(let code, _): code
        default: nil
        }
    }
}

extension MomentaryClientError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .badRequest(let status, _, let message): "The server refused the request (HTTP \(status)): \(message)"
        case .unauthorized(_, let message): "Not signed in to the study: \(message)"
        case .forbidden(_, let message): "Not allowed: \(message)"
        case .notFound(_, let message): "Not found: \(message)"
        case .tooManyRequests(let after): "Too many requests" + Self.waitHint(after)
        case .unavailable(let status, let after): "The server is unavailable (HTTP \(status))" + Self.waitHint(after)
        case .timeout: "The request timed out."
        case .connectionLost: "The network connection was lost."
        case .cannotConnect(let reason): "Cannot connect to the server: \(reason)"
        case .invalidResponse(let reason): "The server's answer was not understood: \(reason)"
        case .invalidRequest(let reason): "The request could not be prepared: \(reason)"
        case .cancelled: "The request was cancelled."
        }
    }

    private static func waitHint(_ seconds: TimeInterval?) -> String {
        guard let seconds else { return "." }
        return "; retry after \(Int(seconds.rounded(.up))) s."
    }
}
