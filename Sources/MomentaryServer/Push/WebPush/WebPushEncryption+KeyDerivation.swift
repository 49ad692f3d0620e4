import Crypto
import Foundation

extension WebPushEncryption {
    /// The content-encryption key and nonce of RFC 8291 §3.3–3.4 and RFC 8188 §2.2–2.3.
    struct ContentKeys {
        let key: SymmetricKey
        let nonce: AES.GCM.Nonce
    }

    static func sharedSecret(
        _ privateKey: P256.KeyAgreement.PrivateKey, _ publicKey: P256.KeyAgreement.PublicKey
    ) throws(WebPushEncryptionError) -> SharedSecret {
        do {
            return try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
        } catch {
            // Both keys are validated P-256 keys, so agreement cannot fail in practice.
            throw .notOnCurve(field: "public key")
        }
    }

    /// Mixes the auth secret and both public keys into the ECDH secret (so only this subscription
    /// can decrypt), then derives the AES-128 key and the 96-bit nonce from the salt.
    static func contentKeys(
        sharedSecret: SharedSecret, authSecret: Data, receiverPublicKey: Data, senderPublicKey: Data, salt: Data
    ) -> ContentKeys {
        let keyInfo = Data("WebPush: info".utf8) + [0x00] + receiverPublicKey + senderPublicKey
        let inputKeyingMaterial = sharedSecret.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        let pseudoRandomKey = HKDF<SHA256>.extract(inputKeyMaterial: inputKeyingMaterial, salt: salt)
        let key = HKDF<SHA256>.expand(
            pseudoRandomKey: pseudoRandomKey, info: Data("Content-Encoding: aes128gcm".utf8) + [0x00],
            outputByteCount: 16)
        let nonceKey = HKDF<SHA256>.expand(
            pseudoRandomKey: pseudoRandomKey, info: Data("Content-Encoding: nonce".utf8) + [0x00],
            outputByteCount: 12)
        // The one record has sequence number 0, so the nonce is used as derived.
        let nonce = nonceKey.withUnsafeBytes { bytes in try? AES.GCM.Nonce(data: Data(bytes)) }
        guard let nonce else { preconditionFailure("a 12-byte AES-GCM nonce is always valid") }
        return ContentKeys(key: key, nonce: nonce)
    }

    static func randomBytes(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
