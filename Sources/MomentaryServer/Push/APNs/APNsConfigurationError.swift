import Foundation

/// A problem with the `APNS_*` variables, described in one sentence that says what to change.
public enum APNsConfigurationError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case missingVariable(String)
    case fileMissing(variable: String, path: String)
    case fileUnreadable(variable: String, path: String)
    case notP256Key(path: String)
    case invalidIdentifier(variable: String, value: String)
    case invalidTopic(String)
    case invalidEnvironment(String)
    case invalidURL(String)
    case notCertificate(path: String)

    public var description: String {
        switch self {
        case .missingVariable(let name):
            "\(name) is not set, but APNs needs it once APNS_KEY_FILE is set (also set APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC)."
        case .fileMissing(let variable, let path):
            "\(variable) names \(path), but there is no file there."
        case .fileUnreadable(let variable, let path):
            "\(variable) names \(path), but that file cannot be read by the server."
        case .notP256Key(let path):
            "APNS_KEY_FILE \(path) is not a P-256 private key in PEM form; use the .p8 file Apple issued, which starts with -----BEGIN PRIVATE KEY-----."
        case .invalidIdentifier(let variable, let value):
            "\(variable) is “\(value)”, but it must be Apple's 10-character identifier of capital letters and digits."
        case .invalidTopic(let value):
            "APNS_TOPIC is “\(value)”, but it must be the app's bundle identifier, such as org.example.momentary."
        case .invalidEnvironment(let value):
            "APNS_ENVIRONMENT is “\(value)”, but it must be production or sandbox."
        case .invalidURL(let value):
            "APNS_URL is “\(value)”, but it must be an https:// URL with a host and no path, such as https://127.0.0.1:8443."
        case .notCertificate(let path):
            "APNS_CA_FILE \(path) holds no PEM certificate; it must contain at least one -----BEGIN CERTIFICATE----- block."
        }
    }

    public var errorDescription: String? { description }
}
