import Foundation
import MomentaryCore

/// The Web Push settings, read from the environment:
///
/// - `WEBPUSH_VAPID_PRIVATE_KEY`: the VAPID private key, either the raw 32-byte P-256 scalar in
///   base64url (43 characters, as `VAPID.KeyPair.generate().privateKeyBase64URL` prints it), or —
///   when the value contains a `/` or a `.` — the path of a PEM file holding the key (SEC 1 or
///   PKCS #8), or inline PEM text starting with `-----BEGIN`.
/// - `WEBPUSH_VAPID_SUBJECT`: a `mailto:` address or `https:` URL where push services can reach
///   the operator (RFC 8292 §2.1).
///
/// Both unset means Web Push is off; one without the other is an error.
public struct WebPushConfiguration: Sendable {
    public static let privateKeyVariable = "WEBPUSH_VAPID_PRIVATE_KEY"
    public static let subjectVariable = "WEBPUSH_VAPID_SUBJECT"

    public var keyPair: VAPID.KeyPair
    public var subject: String

    public init(keyPair: VAPID.KeyPair, subject: String) throws(WebPushConfigurationError) {
        do {
            try VAPID.validateSubject(subject)
        } catch {
            throw .invalidSubject(subject)
        }
        self.keyPair = keyPair
        self.subject = subject
    }

    /// The configuration from the environment, or nil when neither variable is set.
    public static func load(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(WebPushConfigurationError) -> WebPushConfiguration? {
        let keyText = nonEmpty(environment[privateKeyVariable])
        let subject = nonEmpty(environment[subjectVariable])
        switch (keyText, subject) {
        case (nil, nil):
            return nil
        case (nil, _):
            throw .missing(variable: privateKeyVariable, because: "\(subjectVariable) is set")
        case (_, nil):
            throw .missing(variable: subjectVariable, because: "\(privateKeyVariable) is set")
        case (let keyText?, let subject?):
            return try WebPushConfiguration(keyPair: keyPair(from: keyText), subject: subject)
        }
    }

    /// Tells the three accepted forms apart: base64url never contains `/`, `.` or `-----`.
    static func keyPair(from value: String) throws(WebPushConfigurationError) -> VAPID.KeyPair {
        do {
            if value.hasPrefix("-----BEGIN") {
                return try VAPID.KeyPair(pem: value)
            }
            if value.contains("/") || value.contains(".") {
                let pem: String
                do {
                    pem = try String(contentsOfFile: value, encoding: .utf8)
                } catch {
                    throw WebPushConfigurationError.unreadableKeyFile(path: value, reason: error.localizedDescription)
                }
                return try VAPID.KeyPair(pem: pem)
            }
            return try VAPID.KeyPair(base64URLPrivateKey: value)
        } catch let error as WebPushConfigurationError {
            throw error
        } catch VAPIDError.invalidPrivateKey(let reason) {
            throw .invalidPrivateKey(reason: reason)
        } catch {
            throw .invalidPrivateKey(reason: "\(error)")
        }
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}

/// A Web Push configuration problem, in one sentence that says what to change.
public enum WebPushConfigurationError: Error, Equatable, CustomStringConvertible {
    case missing(variable: String, because: String)
    case invalidSubject(String)
    /// The reason never quotes the key itself: it is a secret.
    case invalidPrivateKey(reason: String)
    case unreadableKeyFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let variable, let because):
            "\(variable) must be set because \(because); set both for Web Push or neither to turn it off."
        case .invalidSubject(let subject):
            "\(WebPushConfiguration.subjectVariable) is “\(subject)”, but it must be a mailto: address or an https: URL."
        case .invalidPrivateKey(let reason):
            "\(WebPushConfiguration.privateKeyVariable) is unusable because \(reason); give the 43-character base64url key or the path of a PEM file."
        case .unreadableKeyFile(let path, let reason):
            "\(WebPushConfiguration.privateKeyVariable) names the PEM file \(path), which cannot be read: \(reason)."
        }
    }
}
