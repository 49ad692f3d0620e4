import Foundation
import MomentaryServer
import MomentaryTestServers
import Testing

@Suite("APNs configuration from the environment")
struct APNsConfigurationTests {
    /// Runs `body` with a directory holding a valid key file and the variables naming it.
    private func withKeyFile(_ body: (URL, [String: String]) throws -> Void) throws {
        let directory = try APNsHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory, try APNsHarness.writeKey(APNsTestKey(), in: directory))
    }

    private func loadError(_ variables: [String: String]) -> APNsConfigurationError? {
        do {
            _ = try APNsConfiguration.load(environment: variables)
            return nil
        } catch {
            return error as? APNsConfigurationError
        }
    }

    @Test("without APNS_KEY_FILE APNs is simply not configured")
    func notConfigured() throws {
        #expect(try APNsConfiguration.load(environment: ["APNS_TOPIC": "org.example.app"]) == nil)
    }

    @Test("a complete configuration picks Apple's hosts unless APNS_URL overrides them")
    func complete() throws {
        let directory = try APNsHarness.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var variables = try APNsHarness.writeKey(APNsTestKey(keyID: "KEY1234567", teamID: "TEAM765432"), in: directory)
        variables["APNS_ENVIRONMENT"] = "sandbox"

        let apple = try #require(try APNsConfiguration.load(environment: variables))
        #expect(apple.keyID == "KEY1234567")
        #expect(apple.teamID == "TEAM765432")
        #expect(apple.topic == APNsHarness.topic)
        #expect(apple.environment == .sandbox)
        #expect(apple.baseURL(sandbox: true).absoluteString == "https://api.sandbox.push.apple.com")
        #expect(apple.baseURL(sandbox: false).absoluteString == "https://api.push.apple.com")
        #expect(apple.tokenLifetime == 40 * 60)

        let caPath = directory.appendingPathComponent("ca.pem").path
        try Data(LocalAPNsCertificates.generate().certificateAuthorityPEM.utf8).write(to: URL(fileURLWithPath: caPath))
        variables["APNS_URL"] = "https://127.0.0.1:8443"
        variables["APNS_CA_FILE"] = caPath
        let local = try #require(try APNsConfiguration.load(environment: variables))
        #expect(local.baseURL(sandbox: true).absoluteString == "https://127.0.0.1:8443")
        #expect(local.baseURL(sandbox: false).absoluteString == "https://127.0.0.1:8443")
        #expect(local.extraTrustedCertificates.count == 1)
    }

    @Test("a key file that does not exist is named")
    func missingKeyFile() {
        let error = loadError(["APNS_KEY_FILE": "/nonexistent/AuthKey.p8", "APNS_KEY_ID": "ABC123DEFG",
                               "APNS_TEAM_ID": "TEAM123456", "APNS_TOPIC": "org.example.app"])
        #expect(error == .fileMissing(variable: "APNS_KEY_FILE", path: "/nonexistent/AuthKey.p8"))
        #expect(error?.description.contains("/nonexistent/AuthKey.p8") == true)
    }

    @Test("a key file that is not a P-256 PEM private key is refused",
          arguments: ["just some text\n", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"])
    func notAKey(contents: String) throws {
        try withKeyFile { directory, variables in
            let path = try #require(variables["APNS_KEY_FILE"])
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            #expect(loadError(variables) == .notP256Key(path: path))
        }
    }

    @Test("a missing companion variable is named",
          arguments: ["APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC"])
    func missingVariable(name: String) throws {
        try withKeyFile { _, variables in
            var incomplete = variables
            incomplete[name] = nil
            let error = loadError(incomplete)
            #expect(error == .missingVariable(name))
            #expect(error?.description.hasPrefix(name) == true)
        }
    }

    @Test("key and team ids must be Apple's 10-character identifiers",
          arguments: [("APNS_KEY_ID", "ABC123"), ("APNS_KEY_ID", "ABC123DEFGH"), ("APNS_TEAM_ID", "team123456")])
    func badIdentifier(name: String, value: String) throws {
        try withKeyFile { _, variables in
            var wrong = variables
            wrong[name] = value
            #expect(loadError(wrong) == .invalidIdentifier(variable: name, value: value))
        }
    }

    @Test("APNS_ENVIRONMENT accepts only production and sandbox")
    func badEnvironment() throws {
        try withKeyFile { _, variables in
            var wrong = variables
            wrong["APNS_ENVIRONMENT"] = "development"
            let error = loadError(wrong)
            #expect(error == .invalidEnvironment("development"))
            #expect(error?.description.contains("production or sandbox") == true)
        }
    }

    @Test("APNS_URL must be an https URL without a path",
          arguments: ["http://127.0.0.1:8443", "https://", "https://127.0.0.1:8443/3/device", "127.0.0.1:8443"])
    func badURL(value: String) throws {
        try withKeyFile { _, variables in
            var wrong = variables
            wrong["APNS_URL"] = value
            #expect(loadError(wrong) == .invalidURL(value))
        }
    }

    @Test("APNS_CA_FILE must exist and hold a PEM certificate")
    func badCertificateFile() throws {
        try withKeyFile { directory, variables in
            var missing = variables
            missing["APNS_CA_FILE"] = directory.appendingPathComponent("none.pem").path
            #expect(loadError(missing) == .fileMissing(variable: "APNS_CA_FILE", path: directory.appendingPathComponent("none.pem").path))

            // The key file is PEM, but not a certificate.
            var notCertificate = variables
            notCertificate["APNS_CA_FILE"] = variables["APNS_KEY_FILE"]
            let keyPath = try #require(variables["APNS_KEY_FILE"])
            #expect(loadError(notCertificate) == .notCertificate(path: keyPath))
        }
    }
}
