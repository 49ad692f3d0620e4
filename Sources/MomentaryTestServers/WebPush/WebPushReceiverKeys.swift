import Crypto
import Foundation

/// The browser's half of a subscription: its private key and auth secret, and the decryption a
/// browser runs on each message (RFC 8291 §3, RFC 8188). Written out step by step with HMAC,
/// apart from the server's encryption code, so the two check each other.
struct WebPushReceiverKeys: Sendable {
    struct Failure: Error {
        let reason: String
    }

    let privateKey: P256.KeyAgreement.PrivateKey
    let authSecret: Data

    static func generate() -> WebPushReceiverKeys {
        WebPushReceiverKeys(
            privateKey: P256.KeyAgreement.PrivateKey(),
            authSecret: Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }))
    }

    var publicKey: Data { privateKey.publicKey.x963Representation }

    func decrypt(_ body: Data) throws(Failure) -> Data {
        let bytes = [UInt8](body)
        // salt(16) | rs(4) | idlen(1) | keyid(idlen): the sender's uncompressed public key.
        guard bytes.count >= 21 + 65 else { throw Failure(reason: "body of \(bytes.count) bytes is shorter than the 86-byte header") }
        let salt = Data(bytes[0..<16])
        let recordSize = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        guard bytes[20] == 65 else { throw Failure(reason: "key id length is \(bytes[20]), not 65") }
        let senderKeyBytes = Data(bytes[21..<86])
        let record = Data(bytes[86...])
        guard record.count >= 17, record.count <= recordSize else {
            throw Failure(reason: "record of \(record.count) bytes does not fit record size \(recordSize)")
        }
        let senderKey: P256.KeyAgreement.PublicKey
        do {
            senderKey = try P256.KeyAgreement.PublicKey(x963Representation: senderKeyBytes)
        } catch {
            throw Failure(reason: "key id is not a P-256 public key")
        }
        let secret: Data
        do {
            secret = try privateKey.sharedSecretFromKeyAgreement(with: senderKey).withUnsafeBytes { Data($0) }
        } catch {
            throw Failure(reason: "key agreement failed")
        }

        let keyPRK = hmac(key: authSecret, secret)
        let keyInfo = Data("WebPush: info\u{0}".utf8) + publicKey + senderKeyBytes
        let inputKeyingMaterial = hmac(key: keyPRK, keyInfo + [0x01])
        let prk = hmac(key: salt, inputKeyingMaterial)
        let contentKey = hmac(key: prk, Data("Content-Encoding: aes128gcm\u{0}".utf8) + [0x01]).prefix(16)
        let nonce = hmac(key: prk, Data("Content-Encoding: nonce\u{0}".utf8) + [0x01]).prefix(12)

        let padded: Data
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce), ciphertext: record.prefix(record.count - 16), tag: record.suffix(16))
            padded = try AES.GCM.open(box, using: SymmetricKey(data: contentKey))
        } catch {
            throw Failure(reason: "the record does not decrypt with this subscription's keys")
        }
        guard let end = padded.lastIndex(where: { $0 != 0 }), padded[end] == 0x02 else {
            throw Failure(reason: "the record lacks the 0x02 last-record delimiter")
        }
        return Data(padded[padded.startIndex..<end])
    }

    private func hmac(key: Data, _ message: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}
