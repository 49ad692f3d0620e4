import Crypto
import Foundation
import JWTKit
import MomentaryCore

/// Checks `Authorization: vapid t=<JWT>, k=<key>` as a push service does (RFC 8292 §3–4): the
/// ES256 signature against `k`, `aud` equal to the service's origin, `exp` in the future and at
/// most 24 hours ahead, and a `sub` contact.
struct VAPIDVerifier: Sendable {
    struct Claims: JWTPayload {
        var aud: String
        var exp: Int
        var sub: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    struct Verified: Sendable {
        let token: String
        let publicKey: String
        let claims: Claims
    }

    struct Failure: Error {
        let reason: String
    }

    let origin: String
    let now: @Sendable () -> Date

    func verify(authorization header: String?) async throws(Failure) -> Verified {
        guard let header, header.lowercased().hasPrefix("vapid ") else {
            throw Failure(reason: "no Authorization header with the vapid scheme")
        }
        var parameters: [String: String] = [:]
        for part in header.dropFirst("vapid ".count).split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 { parameters[pair[0].lowercased()] = pair[1] }
        }
        guard let token = parameters["t"], let key = parameters["k"] else {
            throw Failure(reason: "the vapid Authorization header lacks t= or k=")
        }
        guard let keyBytes = Base64URL.decode(key), keyBytes.count == 65,
              let publicKey = try? P256.Signing.PublicKey(x963Representation: keyBytes)
        else { throw Failure(reason: "k= is not a base64url uncompressed P-256 public key") }

        let claims: Claims
        do {
            let key = try ES256PublicKey(backing: publicKey)
            let keys = await JWTKeyCollection().add(ecdsa: key)
            claims = try await keys.verify(token, as: Claims.self)
        } catch {
            throw Failure(reason: "the JWT does not verify with k=: \(error)")
        }
        let currentTime = now().timeIntervalSince1970
        guard claims.aud == origin else { throw Failure(reason: "aud is \(claims.aud), not \(origin)") }
        guard Double(claims.exp) > currentTime else { throw Failure(reason: "the JWT expired at \(claims.exp)") }
        guard Double(claims.exp) <= currentTime + 24 * 3600 else {
            throw Failure(reason: "exp \(claims.exp) is more than 24 hours ahead")
        }
        guard let subject = claims.sub, subject.hasPrefix("mailto:") || subject.hasPrefix("https:") else {
            throw Failure(reason: "sub is missing or neither mailto: nor https:")
        }
        return Verified(token: token, publicKey: key, claims: claims)
    }
}
