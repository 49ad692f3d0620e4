import Foundation

/// What the local APNs server answers: a status and, for errors, APNs' `reason` string.
public struct LocalAPNsReply: Sendable, Hashable, CustomStringConvertible {
    public var status: Int
    public var reason: String?

    public init(status: Int, reason: String?) {
        self.status = status
        self.reason = reason
    }

    public static let success = LocalAPNsReply(status: 200, reason: nil)
    public static let unregistered = LocalAPNsReply(status: 410, reason: "Unregistered")
    public static let badDeviceToken = LocalAPNsReply(status: 400, reason: "BadDeviceToken")
    public static let deviceTokenNotForTopic = LocalAPNsReply(status: 400, reason: "DeviceTokenNotForTopic")
    public static let badTopic = LocalAPNsReply(status: 400, reason: "BadTopic")
    public static let expiredProviderToken = LocalAPNsReply(status: 403, reason: "ExpiredProviderToken")
    public static let invalidProviderToken = LocalAPNsReply(status: 403, reason: "InvalidProviderToken")
    public static let payloadTooLarge = LocalAPNsReply(status: 413, reason: "PayloadTooLarge")
    public static let tooManyRequests = LocalAPNsReply(status: 429, reason: "TooManyRequests")
    public static let internalServerError = LocalAPNsReply(status: 500, reason: "InternalServerError")
    public static let serviceUnavailable = LocalAPNsReply(status: 503, reason: "ServiceUnavailable")

    public var description: String { reason.map { "\(status) \($0)" } ?? "\(status)" }
}

/// One request as the local APNs server received it, with what it answered.
public struct LocalAPNsReceivedRequest: Sendable {
    /// Which TLS connection carried it: 1 for the first accepted connection, and so on.
    public let connectionID: Int
    public let method: String
    public let path: String
    /// The token from `/3/device/<token>`, when the path has that shape.
    public let deviceToken: String?
    /// Header names lowercased, as HTTP/2 sends them.
    public let headers: [String: String]
    public let body: Data
    /// The raw bearer token.
    public let jwt: String?
    /// The provider token's header and claims, when its signature verified.
    public let verifiedToken: LocalAPNsJWT?
    /// The notification, when the body was APNs JSON with an `aps` dictionary.
    public let payload: LocalAPNsPayload?
    public let reply: LocalAPNsReply
}

/// The parts of a notification payload the tests look at.
public struct LocalAPNsPayload: Sendable, Hashable {
    /// `aps.alert` as a string, or its `body` when it is a dictionary.
    public let alert: String?
    public let sound: String?
    public let badge: Int?
    /// The custom `beep_id` key beside `aps`.
    public let beepID: String?

    /// Reads an APNs JSON body; nil when it is not a JSON object with an `aps` dictionary.
    public init?(json body: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let aps = object["aps"] as? [String: Any]
        else { return nil }
        if let text = aps["alert"] as? String {
            alert = text
        } else {
            alert = (aps["alert"] as? [String: Any])?["body"] as? String
        }
        sound = aps["sound"] as? String
        badge = aps["badge"] as? Int
        beepID = object["beep_id"] as? String
    }
}
