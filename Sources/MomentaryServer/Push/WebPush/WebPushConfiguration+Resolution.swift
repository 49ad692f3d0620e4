import Foundation
import MomentaryCore
import NIOSSL

extension WebPushConfiguration {
    /// Where a server outside production keeps the VAPID key it made for itself.
    static let developmentKeyFileName = "webpush-vapid-key.txt"
    /// The contact push services are given for a self-made key: nobody outside reaches it, and
    /// real push services accept it for development.
    static let developmentSubject = "mailto:momentary@localhost"
    /// For tests: a PEM file of extra CA certificates to trust for push services (the local one).
    public static let caFileVariable = "WEBPUSH_CA_FILE"

    /// The Web Push settings this server uses: those of the environment when set; otherwise,
    /// outside production, a key pair made once and kept in the data directory, so a laptop's
    /// `serve --demo` (and `beep now` beside it) can beep browsers with no configuration.
    /// In production, none: Web Push stays off until it is configured.
    public static func resolve(
        for configuration: Configuration, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> WebPushConfiguration? {
        if let configured = try load(environment: environment) { return configured }
        guard configuration.environmentName != "production" else { return nil }
        let keyFile = configuration.dataDirectory.appendingPathComponent(developmentKeyFileName)
        return try WebPushConfiguration(keyPair: try developmentKeyPair(at: keyFile), subject: developmentSubject)
    }

    /// Reads the kept key, or makes and keeps one. Two processes starting at once agree: the file
    /// is written only if absent, and whoever loses the race reads the winner's key.
    static func developmentKeyPair(at file: URL) throws -> VAPID.KeyPair {
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            return try keyPair(from: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let made = VAPID.KeyPair.generate()
        do {
            try Data((made.privateKeyBase64URL + "\n").utf8).write(to: file, options: .withoutOverwriting)
            return made
        } catch {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                throw CommandFailure("Could not keep a Web Push key in \(file.path): \(error.localizedDescription)")
            }
            return try keyPair(from: text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The certificates named by `WEBPUSH_CA_FILE`, or none when it is unset.
    static func extraTrustedCertificates(environment: [String: String]) throws -> [NIOSSLCertificate] {
        guard let path = environment[caFileVariable]?.trimmingCharacters(in: .whitespaces), !path.isEmpty else { return [] }
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8),
              let certificates = try? NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)), !certificates.isEmpty
        else {
            throw CommandFailure("\(caFileVariable) names \(path), which is not a readable PEM file of certificates.")
        }
        return certificates
    }
}
