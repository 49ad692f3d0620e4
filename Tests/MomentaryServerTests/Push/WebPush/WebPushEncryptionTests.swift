import Crypto
import Foundation
import MomentaryCore
import Testing

@testable import MomentaryServer

@Suite("Web Push message encryption (RFC 8291, aes128gcm)")
struct WebPushEncryptionTests {
    private func bytes(_ base64URL: String) throws -> Data {
        try #require(Base64URL.decode(base64URL))
    }

    @Test("encrypting the RFC 8291 Appendix A example reproduces the published body byte for byte")
    func appendixAEncryption() throws {
        let senderKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(RFC8291Vector.senderPrivateKey))
        #expect(Base64URL.encode(senderKey.publicKey.x963Representation) == RFC8291Vector.senderPublicKey)
        let subscription = try WebPushSubscriptionKeys(
            p256dh: RFC8291Vector.receiverPublicKey, auth: RFC8291Vector.authSecret)

        let body = try WebPushEncryption.encrypt(
            Data(RFC8291Vector.plaintext.utf8), for: subscription,
            salt: bytes(RFC8291Vector.salt), senderKey: senderKey)

        #expect(Base64URL.encode(body) == RFC8291Vector.body)
    }

    @Test("decrypting the published body with the receiver's keys gives the watermelon sentence")
    func appendixADecryption() throws {
        let receiverKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(RFC8291Vector.receiverPrivateKey))
        let plaintext = try WebPushEncryption.decrypt(
            bytes(RFC8291Vector.body), receiverKey: receiverKey, authSecret: bytes(RFC8291Vector.authSecret))
        #expect(String(decoding: plaintext, as: UTF8.self) == RFC8291Vector.plaintext)
    }

    @Test("a message encrypted for fresh keys decrypts to the same bytes, with a fresh salt each time")
    func roundTrip() throws {
        let receiverKey = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { UInt8($0 * 7) })
        let p256dh = Base64URL.encode(receiverKey.publicKey.x963Representation)
        let message = Data(#"{"beep_id":"b","alert":"How do you feel?"}"#.utf8)

        let first = try WebPushEncryption.encrypt(message, p256dh: p256dh, auth: Base64URL.encode(auth))
        let second = try WebPushEncryption.encrypt(message, p256dh: p256dh, auth: Base64URL.encode(auth))

        #expect(first.count == WebPushEncryption.headerLength + message.count + 1 + 16)
        #expect(first.prefix(16) != second.prefix(16))
        #expect(try WebPushEncryption.decrypt(first, receiverKey: receiverKey, authSecret: auth) == message)
        #expect(try WebPushEncryption.decrypt(second, receiverKey: receiverKey, authSecret: auth) == message)
    }

    @Test("a changed ciphertext byte, a wrong auth secret or a wrong key all fail authentication")
    func tamperingFails() throws {
        let receiverKey = P256.KeyAgreement.PrivateKey()
        let auth = Data(repeating: 9, count: 16)
        let subscription = try WebPushSubscriptionKeys(publicKey: receiverKey.publicKey.x963Representation, authSecret: auth)
        var body = try WebPushEncryption.encrypt(Data("hello".utf8), for: subscription)
        let untouched = body
        body[body.count - 20] ^= 0x01

        #expect(throws: WebPushEncryptionError.authenticationFailed) {
            try WebPushEncryption.decrypt(body, receiverKey: receiverKey, authSecret: auth)
        }
        #expect(throws: WebPushEncryptionError.authenticationFailed) {
            try WebPushEncryption.decrypt(untouched, receiverKey: receiverKey, authSecret: Data(repeating: 8, count: 16))
        }
        #expect(throws: WebPushEncryptionError.authenticationFailed) {
            try WebPushEncryption.decrypt(untouched, receiverKey: P256.KeyAgreement.PrivateKey(), authSecret: auth)
        }
        #expect(throws: WebPushEncryptionError.self) {
            try WebPushEncryption.decrypt(untouched.prefix(40), receiverKey: receiverKey, authSecret: auth)
        }
    }

    @Test(
        "malformed subscription keys are refused with an error naming the key and the problem",
        arguments: [
            (RFC8291Vector.receiverPublicKey + "+", RFC8291Vector.authSecret, WebPushEncryptionError.notBase64URL(field: "p256dh")),
            (RFC8291Vector.receiverPublicKey, "BTBZMqHH6r4Tts7J/aSIgg", .notBase64URL(field: "auth")),
            (String(RFC8291Vector.receiverPublicKey.dropLast(4)), RFC8291Vector.authSecret,
             .wrongLength(field: "p256dh", expected: 65, actual: 62)),
            (RFC8291Vector.receiverPublicKey, "BTBZMqHH6r4Tts7J_aSI", .wrongLength(field: "auth", expected: 16, actual: 15)),
            // The same key with its first byte turned from the 0x04 marker into 0x00.
            ("A" + RFC8291Vector.receiverPublicKey.dropFirst(), RFC8291Vector.authSecret,
             .notUncompressedPoint(field: "p256dh")),
            // 0x04 followed by 64 zero bytes: the right shape, but not a point on P-256.
            ("BA" + String(repeating: "A", count: 85), RFC8291Vector.authSecret, .notOnCurve(field: "p256dh")),
        ])
    func badKeys(p256dh: String, auth: String, expected: WebPushEncryptionError) {
        #expect(throws: expected) {
            try WebPushSubscriptionKeys(p256dh: p256dh, auth: auth)
        }
        #expect(!expected.description.isEmpty)
    }

    @Test("a payload over 3993 bytes is refused before anything is sent, as it cannot fit in 4096")
    func oversizedPayload() throws {
        let subscription = try WebPushSubscriptionKeys(p256dh: RFC8291Vector.receiverPublicKey, auth: RFC8291Vector.authSecret)
        let largest = try WebPushEncryption.encrypt(Data(repeating: 0x41, count: 3993), for: subscription)
        #expect(largest.count == 4096)
        #expect(throws: WebPushEncryptionError.plaintextTooLarge(bytes: 3994, limit: 3993)) {
            try WebPushEncryption.encrypt(Data(repeating: 0x41, count: 3994), for: subscription)
        }
    }
}
