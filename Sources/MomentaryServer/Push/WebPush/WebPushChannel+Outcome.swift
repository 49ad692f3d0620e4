import Foundation
import NIOHTTP1

extension WebPushChannel {
    /// What the push service's answer means for the beep (RFC 8030 §5 and §8.3).
    static func outcome(status: Int, headers: HTTPHeaders, body: String) -> PushOutcome {
        let detail = serviceDetail(body)
        switch status {
        case 200..<300:
            return .accepted(statusCode: status, serviceID: headers.first(name: "Location"))
        case 404:
            return .unregistered(statusCode: status, reason: "The push service does not know this subscription (404)\(detail).")
        case 410:
            return .unregistered(statusCode: status, reason: "The subscription has expired or was cancelled (410 Gone)\(detail).")
        case 429:
            return .rejected(
                statusCode: status, reason: "The push service is limiting our rate (429)\(retryAfter(headers))\(detail).",
                retryable: true)
        case 500..<600:
            return .rejected(
                statusCode: status, reason: "The push service failed (\(status))\(retryAfter(headers))\(detail).",
                retryable: true)
        case 400:
            return .rejected(statusCode: status, reason: "The push service called the request malformed (400)\(detail).", retryable: false)
        case 401, 403:
            return .rejected(
                statusCode: status, reason: "The push service refused our VAPID authorization (\(status))\(detail).",
                retryable: false)
        case 413:
            return .rejected(statusCode: status, reason: "The push service found the message too large (413)\(detail).", retryable: false)
        default:
            return .rejected(statusCode: status, reason: "The push service answered with status \(status)\(detail).", retryable: false)
        }
    }

    /// "; retry after 120 s" from a Retry-After header in seconds or as an HTTP date.
    static func retryAfter(_ headers: HTTPHeaders) -> String {
        guard let value = headers.first(name: "Retry-After")?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return ""
        }
        if let seconds = Int(value) { return "; retry after \(seconds) s" }
        return "; retry after \(value)"
    }

    /// The start of the service's own explanation, on one line, for the delivery log.
    static func serviceDetail(_ body: String) -> String {
        let oneLine = body.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        guard !oneLine.isEmpty else { return "" }
        return ": " + (oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine)
    }
}
