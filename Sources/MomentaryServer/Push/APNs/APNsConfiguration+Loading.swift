import Foundation
import JWTKit
import NIOSSL

extension APNsConfiguration {
    /// Reads the `APNS_*` variables. Returns nil when `APNS_KEY_FILE` is unset (APNs is simply not
    /// used); throws `APNsConfigurationError` when APNs is half-configured or a value is wrong.
    public static func load(environment variables: [String: String]) throws -> APNsConfiguration? {
        guard let keyPath = nonEmpty(variables["APNS_KEY_FILE"]) else { return nil }
        let signingKey = try readSigningKey(at: keyPath)

        let keyID = try required("APNS_KEY_ID", in: variables)
        guard isAppleIdentifier(keyID) else {
            throw APNsConfigurationError.invalidIdentifier(variable: "APNS_KEY_ID", value: keyID)
        }
        let teamID = try required("APNS_TEAM_ID", in: variables)
        guard isAppleIdentifier(teamID) else {
            throw APNsConfigurationError.invalidIdentifier(variable: "APNS_TEAM_ID", value: teamID)
        }
        let topic = try required("APNS_TOPIC", in: variables)
        guard !topic.contains(where: { $0.isWhitespace || $0 == "/" }) else {
            throw APNsConfigurationError.invalidTopic(topic)
        }

        var environment = Environment.production
        if let text = nonEmpty(variables["APNS_ENVIRONMENT"]) {
            guard let parsed = Environment(rawValue: text.lowercased()) else {
                throw APNsConfigurationError.invalidEnvironment(text)
            }
            environment = parsed
        }

        var serverURL: URL?
        if let text = nonEmpty(variables["APNS_URL"]) {
            serverURL = try parseServerURL(text)
        }

        var certificates: [NIOSSLCertificate] = []
        if let caPath = nonEmpty(variables["APNS_CA_FILE"]) {
            certificates = try readCertificates(at: caPath)
        }

        return APNsConfiguration(
            signingKey: signingKey, keyID: keyID, teamID: teamID, topic: topic,
            environment: environment, serverURL: serverURL, extraTrustedCertificates: certificates
        )
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return nil
        }
        return trimmed
    }

    private static func required(_ name: String, in variables: [String: String]) throws -> String {
        guard let value = nonEmpty(variables[name]) else { throw APNsConfigurationError.missingVariable(name) }
        return value
    }

    /// Apple's key and team identifiers are 10 characters of A–Z and 0–9.
    private static func isAppleIdentifier(_ text: String) -> Bool {
        text.count == 10 && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    private static func readContents(of path: String, variable: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw APNsConfigurationError.fileMissing(variable: variable, path: path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw APNsConfigurationError.fileUnreadable(variable: variable, path: path)
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func readSigningKey(at path: String) throws -> ES256PrivateKey {
        let pem = try readContents(of: path, variable: "APNS_KEY_FILE")
        // Apple's .p8 files are PKCS #8 PEM; parsing as P-256 also refuses keys on other curves.
        guard pem.contains("-----BEGIN PRIVATE KEY-----") || pem.contains("-----BEGIN EC PRIVATE KEY-----"),
              let key = try? ES256PrivateKey(pem: pem)
        else { throw APNsConfigurationError.notP256Key(path: path) }
        return key
    }

    private static func parseServerURL(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text),
              components.scheme?.lowercased() == "https",
              let host = components.host, !host.isEmpty,
              components.query == nil, components.fragment == nil,
              components.path.isEmpty || components.path == "/",
              let url = components.url
        else { throw APNsConfigurationError.invalidURL(text) }
        return url
    }

    private static func readCertificates(at path: String) throws -> [NIOSSLCertificate] {
        let pem = try readContents(of: path, variable: "APNS_CA_FILE")
        guard let certificates = try? NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)), !certificates.isEmpty else {
            throw APNsConfigurationError.notCertificate(path: path)
        }
        return certificates
    }
}
