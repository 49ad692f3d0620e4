import Foundation
import JWTKit
import NIOSSL

/// How the server talks to Apple Push Notification service: the token-signing key and its
/// identifiers, the app's topic, and (for tests) another host with an extra trusted CA.
///
/// Environment variables, read by `load(environment:)`:
/// - `APNS_KEY_FILE`: the `.p8` signing key downloaded from Apple (P-256, PEM). Without it APNs is
///   not configured and `load` returns nil.
/// - `APNS_KEY_ID`: the key's 10-character identifier (the JWT `kid`).
/// - `APNS_TEAM_ID`: the 10-character developer team identifier (the JWT `iss`).
/// - `APNS_TOPIC`: the app's bundle identifier (the `apns-topic` header).
/// - `APNS_ENVIRONMENT`: `production` (default) or `sandbox`, for device tokens whose registration
///   does not say which gateway issued them.
/// - `APNS_URL`: an `https://` base URL that replaces Apple's hosts (a local APNs test server).
/// - `APNS_CA_FILE`: a PEM file of extra CA certificates to trust, for that test server.
public struct APNsConfiguration: Sendable {
    /// Which APNs gateway a device token belongs to.
    public enum Environment: String, Sendable, CaseIterable {
        case production
        case sandbox
    }

    /// Apple's gateways; port 443 is implied by `https`.
    public static let productionURL = URL(string: "https://api.push.apple.com")!
    public static let sandboxURL = URL(string: "https://api.sandbox.push.apple.com")!

    /// Apple asks for a new provider token no more often than every 20 minutes and rejects one
    /// older than an hour; 40 minutes sits safely between.
    public static let defaultTokenLifetime: TimeInterval = 40 * 60

    public var signingKey: ES256PrivateKey
    public var keyID: String
    public var teamID: String
    public var topic: String
    public var environment: Environment
    /// Replaces both of Apple's hosts when set (tests, benchmarks).
    public var serverURL: URL?
    /// Certificates trusted in addition to the system's roots.
    public var extraTrustedCertificates: [NIOSSLCertificate]
    public var tokenLifetime: TimeInterval
    /// How long one request (including the wait for a free HTTP/2 stream) may take.
    public var requestTimeout: TimeInterval

    public init(
        signingKey: ES256PrivateKey,
        keyID: String,
        teamID: String,
        topic: String,
        environment: Environment = .production,
        serverURL: URL? = nil,
        extraTrustedCertificates: [NIOSSLCertificate] = [],
        tokenLifetime: TimeInterval = APNsConfiguration.defaultTokenLifetime,
        requestTimeout: TimeInterval = 15
    ) {
        self.signingKey = signingKey
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
        self.environment = environment
        self.serverURL = serverURL
        self.extraTrustedCertificates = extraTrustedCertificates
        self.tokenLifetime = tokenLifetime
        self.requestTimeout = requestTimeout
    }

    /// The base URL for a device token of the given environment.
    public func baseURL(sandbox: Bool) -> URL {
        serverURL ?? (sandbox ? Self.sandboxURL : Self.productionURL)
    }
}
