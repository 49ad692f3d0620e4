import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188).
///
/// The body is `salt(16) | rs(4) | idlen(1) | keyid(65)` followed by one record: the plaintext,
/// the 0x02 last-record delimiter, and the 16-byte AES-GCM tag. `keyid` carries the sender's
/// ephemeral public key, which the browser needs to repeat the key agreement.
public enum WebPushEncryption {
    /// The record size written into the header; push services must accept 4096-byte bodies.
    public static let recordSize = 4096
    public static let saltLength = 16
    public static let headerLength = saltLength + 4 + 1 + WebPushSubscriptionKeys.publicKeyLength
    static let tagLength = 16
    /// The largest body a push service is obliged to take (RFC 8030 §7.2).
    public static let maximumBodyLength = 4096
    /// 3993 bytes: what is left of 4096 after the header, the delimiter and the tag.
    public static let maximumPlaintextLength = maximumBodyLength - headerLength - 1 - tagLength

    /// Encrypts `plaintext` for one subscription. `salt` and `senderKey` are fresh random values
    /// unless given; give them only to reproduce a known vector, as reusing them leaks the content.
    public static func encrypt(
        _ plaintext: Data,
        for subscription: WebPushSubscriptionKeys,
        salt: Data? = nil,
        senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()
    ) throws(WebPushEncryptionError) -> Data {
        guard plaintext.count <= maximumPlaintextLength else {
            throw .plaintextTooLarge(bytes: plaintext.count, limit: maximumPlaintextLength)
        }
        let salt = salt ?? randomBytes(count: saltLength)
        guard salt.count == saltLength else {
            throw .wrongLength(field: "salt", expected: saltLength, actual: salt.count)
        }
        let senderPublicKey = senderKey.publicKey.x963Representation
        let keys = try contentKeys(
            sharedSecret: sharedSecret(senderKey, subscription.publicKey),
            authSecret: subscription.authSecret,
            receiverPublicKey: subscription.publicKeyBytes,
            senderPublicKey: senderPublicKey,
            salt: salt)

        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(plaintext + [0x02], using: keys.key, nonce: keys.nonce)
        } catch {
            // Only a malformed key or nonce makes sealing fail, and both are fixed-size here.
            preconditionFailure("AES-GCM sealing failed with a 16-byte key and a 12-byte nonce: \(error)")
        }

        var body = Data(capacity: headerLength + plaintext.count + 1 + tagLength)
        body += salt
        body += withUnsafeBytes(of: UInt32(recordSize).bigEndian) { Data($0) }
        body.append(UInt8(senderPublicKey.count))
        body += senderPublicKey
        body += sealed.ciphertext
        body += sealed.tag
        return body
    }

    /// Encrypts for a subscription given as the browser's base64url `p256dh` and `auth` strings.
    public static func encrypt(_ plaintext: Data, p256dh: String, auth: String) throws(WebPushEncryptionError) -> Data {
        try encrypt(plaintext, for: WebPushSubscriptionKeys(p256dh: p256dh, auth: auth))
    }

    /// The receiver's side: what a browser does with the body, given its private key and auth secret.
    public static func decrypt(
        _ body: Data, receiverKey: P256.KeyAgreement.PrivateKey, authSecret: Data
    ) throws(WebPushEncryptionError) -> Data {
        let header = try AES128GCMHeader(parsing: body)
        let senderPublicKey = try WebPushSubscriptionKeys.uncompressedPublicKey(header.keyID, field: "sender key id")
        let keys = try contentKeys(
            sharedSecret: sharedSecret(receiverKey, senderPublicKey),
            authSecret: authSecret,
            receiverPublicKey: receiverKey.publicKey.x963Representation,
            senderPublicKey: header.keyID,
            salt: header.salt)

        let record = body.dropFirst(header.length)
        guard record.count > tagLength else {
            throw .malformedBody(reason: "the record is \(record.count) bytes, shorter than its 16-byte tag")
        }
        guard record.count <= header.recordSize else {
            throw .malformedBody(reason: "it holds more than one record, but a Web Push message is a single record")
        }
        let padded: Data
        do {
            let box = try AES.GCM.SealedBox(
                nonce: keys.nonce, ciphertext: record.dropLast(tagLength), tag: record.suffix(tagLength))
            padded = try AES.GCM.open(box, using: keys.key)
        } catch {
            throw .authenticationFailed
        }
        return try removingPadding(padded)
    }

    /// Strips the padding of the last record: zero bytes after a 0x02 delimiter (RFC 8188 §2).
    static func removingPadding(_ padded: Data) throws(WebPushEncryptionError) -> Data {
        guard let delimiterIndex = padded.lastIndex(where: { $0 != 0 }) else {
            throw .badPadding(reason: "no delimiter byte was found")
        }
        guard padded[delimiterIndex] == 0x02 else {
            throw .badPadding(reason: "the delimiter is 0x\(String(padded[delimiterIndex], radix: 16)), not 0x02")
        }
        return Data(padded[padded.startIndex..<delimiterIndex])
    }
}
