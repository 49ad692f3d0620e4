import Foundation

/// How the server reaches this installation (`push` in registration, body of `PUT /push-token`).
///
/// Wire shapes, by `channel`:
/// - `{"channel": "apns", "token": "<hex device token>", "environment": "production" | "sandbox"}`
///   (`environment` defaults to production);
/// - `{"channel": "webpush", "subscription": {"endpoint": "https://…", "keys": {"p256dh": "…", "auth": "…"}}}`
///   — `subscription` is exactly what a browser's `PushSubscription.toJSON()` returns;
/// - `{"channel": "none"}` — no push; the participant opens the app by themselves (or the study is
///   device-scheduled).
public enum PushRegistration: Sendable, Hashable {
    case apns(token: String, environment: APNsEnvironment)
    case webPush(WebPushSubscription)
    case none

    public var channel: PushChannelKind {
        switch self {
        case .apns: .apns
        case .webPush: .webPush
        case .none: .none
        }
    }
}

public enum PushChannelKind: String, Codable, Sendable, Hashable, CaseIterable {
    case apns
    case webPush = "webpush"
    case none
}

/// Which APNs gateway issued the device token (development builds get sandbox tokens).
public enum APNsEnvironment: String, Codable, Sendable, Hashable, CaseIterable {
    case production
    case sandbox
}

/// A Web Push subscription (RFC 8030 endpoint plus the RFC 8291 keys), base64url as browsers give them.
public struct WebPushSubscription: Codable, Sendable, Hashable {
    public struct Keys: Codable, Sendable, Hashable {
        /// The user agent's P-256 public key, uncompressed point, base64url.
        public var p256dh: String
        /// The 16-byte authentication secret, base64url.
        public var auth: String

        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var endpoint: String
    public var keys: Keys

    public init(endpoint: String, keys: Keys) {
        self.endpoint = endpoint
        self.keys = keys
    }
}

extension PushRegistration: Codable {
    enum CodingKeys: String, CodingKey {
        case channel, token, environment, subscription
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(PushChannelKind.self, forKey: .channel) {
        case .apns:
            let token = try container.decode(String.self, forKey: .token)
            let environment = try container.decodeOmittable(APNsEnvironment.self, forKey: .environment)
            self = .apns(token: token, environment: environment ?? .production)
        case .webPush:
            self = .webPush(try container.decode(WebPushSubscription.self, forKey: .subscription))
        case .none:
            self = .none
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channel, forKey: .channel)
        switch self {
        case .apns(let token, let environment):
            try container.encode(token, forKey: .token)
            try container.encode(environment, forKey: .environment)
        case .webPush(let subscription):
            try container.encode(subscription, forKey: .subscription)
        case .none:
            break
        }
    }
}

extension PushRegistration {
    /// Checks what decoding cannot: an APNs token is hex, a Web Push endpoint is an https URL and
    /// its keys are base64url of the right sizes.
    public func validate(field: String = "push") throws(APIValidationError) {
        switch self {
        case .apns(let token, _):
            let isHex = token.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                     UInt8(ascii: "A")...UInt8(ascii: "F"): true
                default: false
                }
            }
            guard !token.isEmpty, token.count <= 200, isHex, token.count.isMultiple(of: 2) else {
                throw APIValidationError(field: "\(field).token",
                                         message: "The APNs device token must be a non-empty hexadecimal string with an even number of digits (at most 200).")
            }
        case .webPush(let subscription):
            guard let url = URL(string: subscription.endpoint), url.scheme == "https", url.host != nil else {
                throw APIValidationError(field: "\(field).subscription.endpoint",
                                         message: "The Web Push endpoint must be an https URL.")
            }
            guard Base64URL.isUnpadded(subscription.keys.p256dh, byteCount: 65) else {
                throw APIValidationError(field: "\(field).subscription.keys.p256dh",
                                         message: "The Web Push p256dh key must be a P-256 public key (65 bytes) as unpadded base64url: 87 characters of A–Z, a–z, 0–9, '-' and '_'.")
            }
            guard Base64URL.isUnpadded(subscription.keys.auth, byteCount: 16) else {
                throw APIValidationError(field: "\(field).subscription.keys.auth",
                                         message: "The Web Push auth secret must be 16 bytes as unpadded base64url: 22 characters of A–Z, a–z, 0–9, '-' and '_'.")
            }
        case .none:
            break
        }
    }
}
