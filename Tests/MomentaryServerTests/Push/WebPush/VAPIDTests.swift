import Crypto
import Foundation
import JWTKit
import MomentaryCore
import Testing

@testable import MomentaryServer

@Suite("VAPID (RFC 8292) keys and tokens")
struct VAPIDTests {
    /// Where the test clocks start: any fixed instant does.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private let endpoint = URL(string: "https://push.example.net:8443/wpush/v2/abc?x=1")!

    /// Splits `vapid t=…, k=…` and verifies the token with the key from `k=`.
    private func verifiedClaims(_ header: String) async throws -> (claims: VAPID.Claims, key: String, token: String) {
        #expect(header.hasPrefix("vapid t="))
        let parts = header.dropFirst("vapid ".count).components(separatedBy: ", ")
        let token = try #require(parts.first { $0.hasPrefix("t=") }).dropFirst(2)
        let key = try #require(parts.first { $0.hasPrefix("k=") }).dropFirst(2)
        let publicKey = try P256.Signing.PublicKey(x963Representation: try #require(Base64URL.decode(String(key))))
        let keys = await JWTKeyCollection().add(ecdsa: try ES256PublicKey(backing: publicKey))
        let claims = try await keys.verify(String(token), as: VAPID.Claims.self)
        return (claims, String(key), String(token))
    }

    @Test("the Authorization header carries an ES256 JWT that verifies with the k= public key and has aud, exp and sub")
    func tokenVerifiesAndClaims() async throws {
        let time = ManualTimeSource(now: Self.start)
        let keyPair = VAPID.KeyPair.generate()
        let authorizer = try VAPID.Authorizer(keyPair: keyPair, subject: "mailto:ops@example.org", now: time.now)

        let (claims, key, token) = try await verifiedClaims(await authorizer.authorization(for: endpoint))

        #expect(key == keyPair.publicKeyBase64URL)
        #expect(claims.aud == "https://push.example.net:8443")
        #expect(claims.sub == "mailto:ops@example.org")
        #expect(claims.exp == Int(time.now().timeIntervalSince1970 + VAPID.defaultTokenLifetime))
        let header = try #require(Base64URL.decode(String(token.split(separator: ".")[0])))
        let fields = try JSONDecoder().decode([String: String].self, from: header)
        #expect(fields["alg"] == "ES256")
        #expect(fields["typ"] == "JWT")
    }

    @Test("a token is reused within its lifetime and replaced shortly before it expires")
    func tokenCaching() async throws {
        let time = ManualTimeSource(now: Self.start)
        let authorizer = try VAPID.Authorizer(
            keyPair: .generate(), subject: "https://momentary.example.org/contact", tokenLifetime: 3600, now: time.now)
        let audience = "https://fcm.googleapis.com"

        let first = try await authorizer.token(forAudience: audience)
        time.advance(by: 3600 - VAPID.renewalMargin - 1)
        let reused = try await authorizer.token(forAudience: audience)
        let otherService = try await authorizer.token(forAudience: "https://updates.push.services.mozilla.com")
        time.advance(by: 2)
        let renewed = try await authorizer.token(forAudience: audience)

        #expect(reused == first)
        #expect(otherService != first)
        #expect(renewed != first)
        let renewedClaims = try await verifiedClaims("vapid t=\(renewed), k=\(authorizer.keyPair.publicKeyBase64URL)").claims
        #expect(renewedClaims.exp == Int(time.now().timeIntervalSince1970) + 3600)
    }

    @Test(
        "the audience is the endpoint's origin, keeping only a non-default port",
        arguments: [
            ("https://fcm.googleapis.com/fcm/send/abc", "https://fcm.googleapis.com"),
            ("https://Web.Push.Apple.com:443/QGx", "https://web.push.apple.com"),
            ("http://127.0.0.1:49152/push/1", "http://127.0.0.1:49152"),
        ])
    func audience(endpoint: String, expected: String) throws {
        #expect(try VAPID.audience(for: #require(URL(string: endpoint))) == expected)
    }

    @Test("endpoints that are not http(s) URLs with a host are refused")
    func badEndpoint() throws {
        #expect(throws: VAPIDError.self) { try VAPID.audience(for: #require(URL(string: "ftp://push.example.net/x"))) }
        #expect(throws: VAPIDError.self) { try VAPID.audience(for: #require(URL(string: "/relative/path"))) }
    }

    @Test("a subject must be a mailto: address or an https: URL, and the lifetime at most 24 hours")
    func authorizerValidation() {
        for subject in ["mailto:ops@example.org", "https://example.org/contact"] {
            #expect(throws: Never.self) { try VAPID.Authorizer(keyPair: .generate(), subject: subject) }
        }
        for subject in ["ops@example.org", "http://example.org", "mailto:", ""] {
            #expect(throws: VAPIDError.invalidSubject(subject)) { try VAPID.Authorizer(keyPair: .generate(), subject: subject) }
        }
        #expect(throws: VAPIDError.invalidTokenLifetime(25 * 3600)) {
            try VAPID.Authorizer(keyPair: .generate(), subject: "mailto:a@b.c", tokenLifetime: 25 * 3600)
        }
    }

    @Test("a key pair survives export and re-import as base64url and as PEM")
    func keyPairForms() throws {
        let keyPair = VAPID.KeyPair.generate()
        #expect(keyPair.privateKeyBase64URL.count == 43)
        #expect(keyPair.publicKeyBase64URL.count == 87)
        #expect(try VAPID.KeyPair(base64URLPrivateKey: keyPair.privateKeyBase64URL).publicKeyBase64URL == keyPair.publicKeyBase64URL)
        #expect(try VAPID.KeyPair(pem: keyPair.pemRepresentation).publicKeyBase64URL == keyPair.publicKeyBase64URL)
        #expect(VAPID.KeyPair.generate().publicKeyBase64URL != keyPair.publicKeyBase64URL)
    }

    @Test(
        "unusable private keys are refused with the reason",
        arguments: [
            ("not*base64", "not base64url"),
            ("AAAA", "decodes to 3 bytes"),
            (String(repeating: "A", count: 43), "not a valid P-256 private scalar"),
        ])
    func badPrivateKeys(text: String, reasonFragment: String) {
        do {
            _ = try VAPID.KeyPair(base64URLPrivateKey: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains(reasonFragment))
        }
    }
}
