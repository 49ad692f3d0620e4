import Foundation
import MomentaryCore

/// Why a Web Push message could not be encrypted or decrypted, in one sentence naming the culprit.
public enum WebPushEncryptionError: Error, Equatable, CustomStringConvertible {
    /// `field` (e.g. "p256dh", "auth") holds characters outside the base64url alphabet.
    case notBase64URL(field: String)
    case wrongLength(field: String, expected: Int, actual: Int)
    /// A public key that does not start with 0x04, the marker of an uncompressed P-256 point.
    case notUncompressedPoint(field: String)
    case notOnCurve(field: String)
    case plaintextTooLarge(bytes: Int, limit: Int)
    /// The aes128gcm body is cut short or its header is inconsistent.
    case malformedBody(reason: String)
    /// AES-GCM refused the record: wrong keys, wrong auth secret, or a tampered body.
    case authenticationFailed
    case badPadding(reason: String)

    public var description: String {
        switch self {
        case .notBase64URL(let field):
            "The Web Push \(field) is not valid base64url (letters, digits, '-' and '_')."
        case .wrongLength(let field, let expected, let actual):
            "The Web Push \(field) is \(actual) bytes long, but it must be \(expected) bytes."
        case .notUncompressedPoint(let field):
            "The Web Push \(field) is not an uncompressed P-256 public key (it must start with byte 0x04)."
        case .notOnCurve(let field):
            "The Web Push \(field) is not a point on the P-256 curve."
        case .plaintextTooLarge(let bytes, let limit):
            "The Web Push payload is \(bytes) bytes, but at most \(limit) bytes fit in one 4096-byte message."
        case .malformedBody(let reason):
            "The aes128gcm body is malformed: \(reason)."
        case .authenticationFailed:
            "The aes128gcm record failed authentication: wrong keys or auth secret, or the body was altered."
        case .badPadding(let reason):
            "The decrypted aes128gcm record has bad padding: \(reason)."
        }
    }
}
