import Foundation
import JWTKit

/// A signed APNs provider token (an ES256 JWT) and the moment it was issued.
public struct APNsProviderToken: Sendable, Hashable {
    public let jwt: String
    public let issuedAt: Date
}

/// Issues the provider token that authenticates every APNs request.
///
/// APNs wants one token reused across requests: it answers 429 TooManyProviderTokenUpdates when a
/// provider signs new ones too often (more than about once every 20 minutes) and 403
/// ExpiredProviderToken once a token is more than an hour old. So the token is kept for
/// `lifetime` (clamped to 20–60 minutes) and signed again only when it is older, or after APNs
/// called it expired.
public actor APNsTokenProvider {
    public static let lifetimeRange: ClosedRange<TimeInterval> = (20 * 60)...(60 * 60)

    private let signingKey: ES256PrivateKey
    private let keyID: String
    private let teamID: String
    private let lifetime: TimeInterval
    private let now: @Sendable () -> Date

    private var keys: JWTKeyCollection?
    private var current: APNsProviderToken?
    private var signing: Task<APNsProviderToken, any Error>?
    /// How many tokens have been signed: APNs counts these, so tests and metrics do too.
    public private(set) var signedCount = 0

    public init(
        signingKey: ES256PrivateKey,
        keyID: String,
        teamID: String,
        lifetime: TimeInterval = APNsConfiguration.defaultTokenLifetime,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.signingKey = signingKey
        self.keyID = keyID
        self.teamID = teamID
        self.lifetime = min(max(lifetime, Self.lifetimeRange.lowerBound), Self.lifetimeRange.upperBound)
        self.now = now
    }

    public init(configuration: APNsConfiguration, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(
            signingKey: configuration.signingKey, keyID: configuration.keyID, teamID: configuration.teamID,
            lifetime: configuration.tokenLifetime, now: now
        )
    }

    /// The token to send now: the current one while it is young enough, else a newly signed one.
    /// Concurrent callers share a single signing.
    public func token() async throws -> APNsProviderToken {
        if let current {
            let age = now().timeIntervalSince(current.issuedAt)
            if age >= 0 && age < lifetime { return current }
        }
        if let signing { return try await signing.value }

        let task = Task { try await self.sign() }
        signing = task
        defer { signing = nil }
        let token = try await task.value
        current = token
        signedCount += 1
        return token
    }

    /// Drops `token` after APNs refused it as expired or invalid, so the next `token()` signs a new
    /// one. Does nothing when `token` is no longer the current one: when many requests fail with the
    /// same token at once, only the first causes a new signing.
    public func invalidate(_ token: APNsProviderToken) {
        if current == token { current = nil }
    }

    private func sign() async throws -> APNsProviderToken {
        let keys = try await signingKeys()
        let issuedAt = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
        var header = JWTHeader()
        header.kid = keyID
        let claims = APNsProviderClaims(iss: teamID, iat: Int(issuedAt.timeIntervalSince1970))
        let jwt = try await keys.sign(claims, header: header)
        return APNsProviderToken(jwt: jwt, issuedAt: issuedAt)
    }

    private func signingKeys() async throws -> JWTKeyCollection {
        if let keys { return keys }
        let collection = JWTKeyCollection()
        await collection.add(ecdsa: signingKey, kid: JWKIdentifier(string: keyID))
        keys = collection
        return collection
    }
}

/// The claims APNs reads: the team (`iss`) and the issue time in whole seconds (`iat`).
struct APNsProviderClaims: JWTPayload {
    var iss: String
    var iat: Int

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
