import Foundation

/// One APNs answer and what it means for the beep.
///
/// APNs answers 200 with an empty body, or an error status with `{"reason": "…"}` (and, for 410,
/// a `timestamp` in milliseconds: when the token stopped being valid).
struct APNsResponse: Equatable {
    var status: Int
    var reason: String?
    /// The `apns-id` response header: APNs' id for the notification (ours, echoed back).
    var apnsID: String?

    /// What the channel does next.
    enum Verdict: Equatable {
        /// Final: report this outcome.
        case finished(PushOutcome)
        /// APNs refused the provider token: sign a new one and send once more. `otherwise` is
        /// the outcome when the request was already a retry.
        case retryWithNewToken(otherwise: PushOutcome)
    }

    /// Reasons that mean the device token can never work for our topic and environment.
    ///
    /// - `Unregistered` (410) and `ExpiredToken` (410): the app was removed or the token replaced.
    /// - `BadDeviceToken` (400): the token is malformed, or was issued by the other environment
    ///   (a sandbox token sent to production or the reverse). Either way resending it to the
    ///   same gateway always fails the same way, and Apple counts repeated bad-token pushes
    ///   against a provider; the app registers a fresh token when it next runs.
    /// - `DeviceTokenNotForTopic` (400): the token belongs to another app (bundle id).
    static let deadTokenReasons: Set<String> = ["Unregistered", "ExpiredToken", "BadDeviceToken", "DeviceTokenNotForTopic"]

    /// Reasons that blame our provider token rather than the notification.
    static let providerTokenReasons: Set<String> = ["ExpiredProviderToken", "InvalidProviderToken"]

    var verdict: Verdict {
        let reasonText = reason ?? "HTTP \(status)"
        switch status {
        case 200:
            return .finished(.accepted(statusCode: 200, serviceID: apnsID))
        case 410:
            return .finished(.unregistered(statusCode: 410, reason: reasonText))
        case 400 where Self.deadTokenReasons.contains(reasonText):
            return .finished(.unregistered(statusCode: 400, reason: reasonText))
        case 403 where Self.providerTokenReasons.contains(reasonText):
            // A freshly signed token refused again points at the key, key id, team id or clock:
            // resending cannot help until an operator fixes the configuration.
            return .retryWithNewToken(otherwise: .rejected(statusCode: 403, reason: reasonText, retryable: false))
        case 429, 500...599:
            // TooManyRequests, TooManyProviderTokenUpdates, InternalServerError,
            // ServiceUnavailable, Shutdown: APNs asks us to come back later.
            return .finished(.rejected(statusCode: status, reason: reasonText, retryable: true))
        default:
            // 413 PayloadTooLarge and the other 4xx reasons (BadTopic, MissingTopic, TopicDisallowed,
            // PayloadEmpty, BadExpirationDate, MissingProviderToken, BadPath, MethodNotAllowed, …)
            // describe the request itself: sending it again would fail again.
            return .finished(.rejected(statusCode: status, reason: reasonText, retryable: false))
        }
    }

    /// Reads the `reason` from an error body; nil when the body is empty or not APNs' JSON.
    static func reason(fromBody body: Data) -> String? {
        struct ErrorBody: Decodable { var reason: String? }
        guard !body.isEmpty else { return nil }
        return (try? JSONDecoder().decode(ErrorBody.self, from: body))?.reason
    }
}
