import Foundation
import MomentaryCore
import Testing

@testable import MomentaryServer

@Suite("Web Push configuration from the environment")
struct WebPushConfigurationTests {
    private let keyPair = VAPID.KeyPair.generate()

    @Test("with neither variable set Web Push is off")
    func off() throws {
        #expect(try WebPushConfiguration.load(environment: [:]) == nil)
        #expect(try WebPushConfiguration.load(environment: ["WEBPUSH_VAPID_PRIVATE_KEY": " "]) == nil)
    }

    @Test("a base64url key and a mailto: subject configure Web Push with that key")
    func base64URLKey() throws {
        let configuration = try #require(try WebPushConfiguration.load(environment: [
            "WEBPUSH_VAPID_PRIVATE_KEY": keyPair.privateKeyBase64URL,
            "WEBPUSH_VAPID_SUBJECT": "mailto:research@example.org",
        ]))
        #expect(configuration.keyPair.publicKeyBase64URL == keyPair.publicKeyBase64URL)
        #expect(configuration.subject == "mailto:research@example.org")
    }

    @Test("a value containing '/' or '.' is read as the path of a PEM file, and inline PEM works too")
    func pemKeys() throws {
        let file = TestScratch.file("vapid", suffix: ".pem")
        try keyPair.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }

        let fromFile = try #require(try WebPushConfiguration.load(environment: [
            "WEBPUSH_VAPID_PRIVATE_KEY": file.path, "WEBPUSH_VAPID_SUBJECT": "https://example.org",
        ]))
        let inline = try #require(try WebPushConfiguration.load(environment: [
            "WEBPUSH_VAPID_PRIVATE_KEY": keyPair.pemRepresentation, "WEBPUSH_VAPID_SUBJECT": "https://example.org",
        ]))
        #expect(fromFile.keyPair.publicKeyBase64URL == keyPair.publicKeyBase64URL)
        #expect(inline.keyPair.publicKeyBase64URL == keyPair.publicKeyBase64URL)
    }

    @Test("one variable without the other is an error naming the missing one")
    func halfConfigured() {
        #expect(throws: WebPushConfigurationError.missing(
            variable: "WEBPUSH_VAPID_SUBJECT", because: "WEBPUSH_VAPID_PRIVATE_KEY is set")) {
            try WebPushConfiguration.load(environment: ["WEBPUSH_VAPID_PRIVATE_KEY": keyPair.privateKeyBase64URL])
        }
        #expect(throws: WebPushConfigurationError.missing(
            variable: "WEBPUSH_VAPID_PRIVATE_KEY", because: "WEBPUSH_VAPID_SUBJECT is set")) {
            try WebPushConfiguration.load(environment: ["WEBPUSH_VAPID_SUBJECT": "mailto:a@example.org"])
        }
    }

    @Test("malformed values give one sentence naming the variable, never echoing the secret key")
    func malformed() {
        let shortKey = String(keyPair.privateKeyBase64URL.prefix(40))
        let cases: [([String: String], String)] = [
            (["WEBPUSH_VAPID_PRIVATE_KEY": shortKey, "WEBPUSH_VAPID_SUBJECT": "mailto:a@example.org"],
             "WEBPUSH_VAPID_PRIVATE_KEY is unusable because it decodes to 30 bytes"),
            (["WEBPUSH_VAPID_PRIVATE_KEY": "/nonexistent/vapid.pem", "WEBPUSH_VAPID_SUBJECT": "mailto:a@example.org"],
             "names the PEM file /nonexistent/vapid.pem, which cannot be read"),
            (["WEBPUSH_VAPID_PRIVATE_KEY": keyPair.privateKeyBase64URL, "WEBPUSH_VAPID_SUBJECT": "ops@example.org"],
             "WEBPUSH_VAPID_SUBJECT is “ops@example.org”, but it must be a mailto: address or an https: URL."),
        ]
        for (environment, expected) in cases {
            do {
                _ = try WebPushConfiguration.load(environment: environment)
                Issue.record("accepted \(environment)")
            } catch {
                #expect(error.description.contains(expected))
                #expect(!error.description.contains(shortKey))
            }
        }
    }
}
