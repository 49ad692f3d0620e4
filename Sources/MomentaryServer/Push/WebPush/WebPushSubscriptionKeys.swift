import Crypto
import Foundation
import MomentaryCore

/// The keys a browser hands out with a push subscription (`PushSubscription.getKey()`), validated:
/// the receiver's P-256 public key (`p256dh`) and the 16-byte authentication secret (`auth`).
public struct WebPushSubscriptionKeys: Sendable {
    public static let authSecretLength = 16
    public static let publicKeyLength = 65

    public let publicKey: P256.KeyAgreement.PublicKey
    public let authSecret: Data

    /// Reads the base64url strings exactly as the browser's subscription JSON gives them.
    public init(p256dh: String, auth: String) throws(WebPushEncryptionError) {
        guard let publicKeyBytes = Base64URL.decode(p256dh) else { throw .notBase64URL(field: "p256dh") }
        guard let authBytes = Base64URL.decode(auth) else { throw .notBase64URL(field: "auth") }
        try self.init(publicKey: publicKeyBytes, authSecret: authBytes)
    }

    public init(publicKey: Data, authSecret: Data) throws(WebPushEncryptionError) {
        self.publicKey = try Self.uncompressedPublicKey(publicKey, field: "p256dh")
        guard authSecret.count == Self.authSecretLength else {
            throw .wrongLength(field: "auth", expected: Self.authSecretLength, actual: authSecret.count)
        }
        self.authSecret = authSecret
    }

    /// The 65-byte uncompressed point (0x04 | x | y) that RFC 8291 puts into its key derivation.
    public var publicKeyBytes: Data { publicKey.x963Representation }

    /// Parses an uncompressed P-256 point, telling a wrong length, a wrong format and a point off
    /// the curve apart so the message says which.
    static func uncompressedPublicKey(
        _ bytes: Data, field: String
    ) throws(WebPushEncryptionError) -> P256.KeyAgreement.PublicKey {
        guard bytes.count == publicKeyLength else {
            throw .wrongLength(field: field, expected: publicKeyLength, actual: bytes.count)
        }
        guard bytes.first == 0x04 else { throw .notUncompressedPoint(field: field) }
        do {
            return try P256.KeyAgreement.PublicKey(x963Representation: bytes)
        } catch {
            throw .notOnCurve(field: field)
        }
    }
}
