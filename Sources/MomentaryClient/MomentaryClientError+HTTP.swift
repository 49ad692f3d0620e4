import Foundation
import MomentaryCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MomentaryClientError {
    /// The error for a non-2xx HTTP answer: its status, `Retry-After` header and body (an
    /// `APIErrorBody` when the API produced it, anything else when a proxy did).
    public init(status: Int, retryAfterHeader: String?, body: Data, now: Date = Date()) {
        let detail = try? WireCoding.makeDecoder().decode(APIErrorBody.self, from: body).error
        let code = detail?.code
        let message = detail?.message ?? Self.fallbackMessage(status: status, body: body)
        let retryAfter = retryAfterHeader.flatMap { Self.parseRetryAfter($0, now: now) }
        switch status {
        case 401: self = .unauthorized(code: code, message: message)
        case 403: self = .forbidden(code: code, message: message)
        case 404: self = .notFound(code: code, message: message)
        case 408: self = .timeout
        case 429: self = .tooManyRequests(retryAfter: retryAfter)
        case 400..<500: self = .badRequest(status: status, code: code, message: message)
        case 500..<600: self = .unavailable(status: status, retryAfter: retryAfter)
        default: self = .invalidResponse(reason: "unexpected HTTP status \(status)")
        }
    }

    /// Maps a transport failure (URLSession's `URLError`, cancellation, anything else).
    public init(transportError error: any Error) {
        if let clientError = error as? MomentaryClientError {
            self = clientError
            return
        }
        if error is CancellationError {
            self = .cancelled
            return
        }
        guard let urlError = error as? URLError else {
            self = .cannotConnect(reason: String(describing: error))
            return
        }
        switch urlError.code {
        case .timedOut:
            self = .timeout
        case .networkConnectionLost:
            self = .connectionLost
        case .cancelled:
            self = .cancelled
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
             .zeroByteResource, .httpTooManyRedirects, .redirectToNonExistentLocation:
            self = .invalidResponse(reason: urlError.localizedDescription)
        case .badURL, .unsupportedURL:
            self = .invalidRequest(reason: urlError.localizedDescription)
        default:
            // Offline, DNS, refused, TLS trouble: all "cannot reach the server right now".
            self = .cannotConnect(reason: urlError.localizedDescription)
        }
    }

    /// `Retry-After` is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
    static func parseRetryAfter(_ header: String, now: Date) -> TimeInterval? {
        let text = header.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 {
            return TimeInterval(seconds)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    private static func fallbackMessage(status: Int, body: Data) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let reason = HTTPURLResponse.localizedString(forStatusCode: status)
        return text.isEmpty || text.hasPrefix("<") ? "HTTP \(status) \(reason)" : text
    }
}
