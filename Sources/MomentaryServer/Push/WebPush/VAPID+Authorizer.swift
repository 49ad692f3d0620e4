import Foundation
import JWTKit
import MomentaryCore

extension VAPID {
    /// The claims RFC 8292 §2 asks for. `exp` is whole seconds since 1970, as push services expect.
    struct Claims: JWTPayload, Equatable {
        var aud: String
        var exp: Int
        var sub: String

        /// Expiry and audience are checked by the push service, not by the signer.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// Makes the `Authorization: vapid t=…, k=…` header value for an endpoint. Tokens are cached per
    /// audience (push service origin) and reused until close to expiry, so a burst of beeps costs
    /// one signature per push service rather than one per message.
    public actor Authorizer {
        public nonisolated let keyPair: KeyPair
        public nonisolated let subject: String
        public nonisolated let tokenLifetime: TimeInterval
        private let now: @Sendable () -> Date
        private var signingKeys: JWTKeyCollection?
        private var cache: [String: (token: String, expiresAt: Date)] = [:]

        public init(
            keyPair: KeyPair, subject: String, tokenLifetime: TimeInterval = VAPID.defaultTokenLifetime,
            now: @escaping @Sendable () -> Date = { Date() }
        ) throws(VAPIDError) {
            try VAPID.validateSubject(subject)
            guard tokenLifetime > VAPID.renewalMargin, tokenLifetime <= VAPID.maximumTokenLifetime else {
                throw .invalidTokenLifetime(tokenLifetime)
            }
            self.keyPair = keyPair
            self.subject = subject
            self.tokenLifetime = tokenLifetime
            self.now = now
        }

        /// The header value for a message to `endpoint`.
        public func authorization(for endpoint: URL) async throws(VAPIDError) -> String {
            let token = try await token(forAudience: VAPID.audience(for: endpoint))
            return "vapid t=\(token), k=\(keyPair.publicKeyBase64URL)"
        }

        /// A signed JWT for `audience`, from the cache while it has more than `renewalMargin` left.
        public func token(forAudience audience: String) async throws(VAPIDError) -> String {
            let currentTime = now()
            if let cached = cache[audience], cached.expiresAt.timeIntervalSince(currentTime) > VAPID.renewalMargin {
                return cached.token
            }
            // Whole seconds, rounded down, so `exp` never lands beyond the 24-hour limit.
            let expiry = Date(timeIntervalSince1970: (currentTime.timeIntervalSince1970 + tokenLifetime).rounded(.down))
            let claims = Claims(aud: audience, exp: Int(expiry.timeIntervalSince1970), sub: subject)
            let token: String
            do {
                token = try await keys().sign(claims)
            } catch {
                throw .signingFailed(reason: "\(error)")
            }
            cache = cache.filter { $0.value.expiresAt > currentTime }
            cache[audience] = (token, expiry)
            return token
        }

        private func keys() async throws -> JWTKeyCollection {
            if let signingKeys { return signingKeys }
            let key = try ES256PrivateKey(backing: keyPair.privateKey)
            let collection = await JWTKeyCollection().add(ecdsa: key)
            signingKeys = collection
            return collection
        }
    }
}
