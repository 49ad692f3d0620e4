import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

@Suite("Participant web app: the Web Push key")
struct WebPushKeyTests {
    @Test("outside production the server makes a VAPID key once, keeps it, and serves its public half")
    func developmentKeyIsKept() async throws {
        try await withTestApp { app, configuration in
            var served = ""
            try await app.testing().test(.GET, "api/v1/push/web-push-key") { response in
                #expect(response.status == .ok)
                served = try WireCoding.makeDecoder().decode(WebPushKey.self, from: Data(response.body.readableBytesView)).publicKey
            }
            #expect(Base64URL.decode(served)?.count == 65)
            #expect(Base64URL.decode(served)?.first == 0x04, "an uncompressed P-256 point")
            // Another process on the same data directory (`beep now`) signs with the same key.
            let again = try #require(try WebPushConfiguration.resolve(for: configuration, environment: [:]))
            #expect(again.keyPair.publicKeyBase64URL == served)
            let registry = try PushChannelRegistry.configured(
                for: configuration, httpClient: app.http.client.shared, environment: [:])
            #expect(registry.names.contains("webpush"))
        }
    }

    @Test("a configured key wins; production without one has Web Push off")
    func configuredOrOff() throws {
        let directory = try TestScratch.folder("vapid")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = VAPID.KeyPair.generate()
        let development = Configuration(
            dataDirectory: directory, database: .sqlite(path: directory.appendingPathComponent("db.sqlite").path))
        let configured = try #require(try WebPushConfiguration.resolve(for: development, environment: [
            WebPushConfiguration.privateKeyVariable: pair.privateKeyBase64URL,
            WebPushConfiguration.subjectVariable: "mailto:lab@example.org",
        ]))
        #expect(configured.keyPair.publicKeyBase64URL == pair.publicKeyBase64URL)
        var production = development
        production.environmentName = "production"
        #expect(try WebPushConfiguration.resolve(for: production, environment: [:]) == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(WebPushConfiguration.developmentKeyFileName).path))
    }

    @Test("a WEBPUSH_CA_FILE that holds no certificate stops the server with the variable named")
    func badCAFile() throws {
        let file = TestScratch.file("not-a-ca", suffix: ".pem")
        try Data("hello".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try WebPushConfiguration.extraTrustedCertificates(environment: [WebPushConfiguration.caFileVariable: file.path])
        } throws: { "\($0)".contains(WebPushConfiguration.caFileVariable) }
    }
}
