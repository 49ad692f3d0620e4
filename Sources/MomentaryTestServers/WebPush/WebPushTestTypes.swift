import Foundation

/// A subscription as a browser would report it to the application server: the endpoint to POST
/// to and the public halves of its keys (base64url). The service keeps the private halves.
public struct WebPushTestSubscription: Sendable, Hashable {
    public let id: String
    public let endpoint: URL
    public let p256dh: String
    public let auth: String
}

/// A push message the service accepted, decrypted as the subscribed browser would see it.
public struct ReceivedWebPushMessage: Sendable {
    public let subscriptionID: String
    /// The decrypted payload (the JSON the service worker receives).
    public let payload: Data
    /// Request headers with lower-cased names.
    public let headers: [String: String]
    /// The JWT from `Authorization: vapid t=…` and what it claimed.
    public let vapidToken: String
    public let vapidPublicKey: String
    public let vapidAudience: String
    public let vapidSubject: String
    public let vapidExpiry: Date
}

/// A request the service turned down, and why: for tests that check the refusal was for the
/// reason they meant to provoke.
public struct WebPushRefusal: Sendable {
    public let subscriptionID: String?
    public let status: Int
    public let reason: String
}

/// What the service answers for a subscription instead of accepting messages, to stand in for an
/// expired subscription (410), rate limiting (429 with Retry-After) or an outage (500).
public struct CannedWebPushResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: String

    public init(status: Int, headers: [String: String] = [:], body: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
