import Crypto
import Foundation
import MomentaryCore

/// A provider token as APNs reads it: an ES256 JSON Web Signature in compact form whose header
/// names the key (`kid`) and whose claims name the team (`iss`) and the issue time (`iat`).
///
/// Verified here with swift-crypto directly, independently of the JWT library the client uses,
/// so a token only passes if it is standard JWS.
public struct LocalAPNsJWT: Sendable, Hashable {
    public let algorithm: String
    public let keyID: String
    public let issuer: String
    public let issuedAt: Int

    public enum Failure: Error, Equatable {
        /// Not three base64url parts of JSON with the fields APNs needs.
        case malformed
        /// `alg` is not ES256, or the signature does not verify against the key.
        case badSignature
    }

    /// Parses `jwt` and checks its ES256 signature against `key`.
    public static func verify(_ jwt: String, with key: P256.Signing.PublicKey) throws(Failure) -> LocalAPNsJWT {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = Base64URL.decode(String(parts[0])),
              let claimsData = Base64URL.decode(String(parts[1])),
              let signatureData = Base64URL.decode(String(parts[2])),
              let header = try? JSONDecoder().decode(Header.self, from: headerData),
              let claims = try? JSONDecoder().decode(Claims.self, from: claimsData)
        else { throw .malformed }

        guard header.alg == "ES256",
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
              key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { throw .badSignature }

        return LocalAPNsJWT(algorithm: header.alg, keyID: header.kid, issuer: claims.iss, issuedAt: claims.iat)
    }

    private struct Header: Decodable {
        var alg: String
        var kid: String
    }

    /// `iat` must be a whole number of seconds, as Apple documents it.
    private struct Claims: Decodable {
        var iss: String
        var iat: Int
    }
}
