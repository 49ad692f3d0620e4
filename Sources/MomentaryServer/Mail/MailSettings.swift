import Foundation

/// Where outbound email goes, read from `MOMENTARY_SMTP_URL` and `MOMENTARY_MAIL_FROM` (the
/// README's configuration table). Without both, the server sends no email and says so where a
/// feature needs it (the password reset page).
///
/// `smtp://user:password@host:587?starttls=required` (the default for `smtp://`),
/// `?starttls=never` for a relay on the same machine, and `smtps://host:465` for TLS from the
/// first byte. The user and password are percent-decoded, so a password may hold any character.
public struct MailSettings: Sendable, Equatable {
    public enum Security: String, Sendable {
        /// TLS from the first byte (`smtps://`, port 465 by default).
        case implicitTLS = "implicit"
        /// STARTTLS before anything else is said; a server that does not offer it is refused.
        case startTLS = "required"
        /// Plain text all the way (a relay on the same host or network); sending a password is then
        /// the operator's choice, made by writing one into the URL.
        case none = "never"
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var user: String?
    public var password: String?
    /// The `From` address (`MOMENTARY_MAIL_FROM`), with an optional display name.
    public var from: MailAddress
    /// `MOMENTARY_SMTP_CA_FILE`: a PEM file of certificate authorities to trust instead of the
    /// system's (a lab's own mail relay with an internal CA).
    public var certificateAuthorityFile: String?
    /// How long to wait for the server at each step.
    public var timeoutSeconds = 30

    static func load(from environment: [String: String]) throws(ConfigurationError) -> MailSettings? {
        let urlText = environment["MOMENTARY_SMTP_URL"].nonEmpty
        let fromText = environment["MOMENTARY_MAIL_FROM"].nonEmpty
        guard let urlText else {
            if let fromText {
                throw .invalidValue(variable: "MOMENTARY_SMTP_URL", value: "", expected:
                    "an smtp:// or smtps:// URL, since MOMENTARY_MAIL_FROM (\(fromText)) is set")
            }
            return nil
        }
        guard let fromText else {
            throw .invalidValue(variable: "MOMENTARY_MAIL_FROM", value: "", expected:
                "the address mail is sent from, such as Momentary <momentary@lab.example.org>, since MOMENTARY_SMTP_URL is set")
        }
        guard let from = MailAddress(parsing: fromText) else {
            throw .invalidValue(variable: "MOMENTARY_MAIL_FROM", value: fromText, expected:
                "an email address, optionally with a name: Momentary <momentary@lab.example.org>")
        }
        var settings = try parse(urlText, from: from)
        if let file = environment["MOMENTARY_SMTP_CA_FILE"].nonEmpty {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw .invalidValue(variable: "MOMENTARY_SMTP_CA_FILE", value: file, expected: "a readable PEM file")
            }
            settings.certificateAuthorityFile = file
        }
        return settings
    }

    static func parse(_ text: String, from: MailAddress) throws(ConfigurationError) -> MailSettings {
        let variable = "MOMENTARY_SMTP_URL"
        func refuse(_ expected: String) -> ConfigurationError {
            .invalidValue(variable: variable, value: hidingPassword(text), expected: expected)
        }
        guard let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased() else {
            throw refuse("a URL such as smtp://user:password@mail.example.org:587")
        }
        guard scheme == "smtp" || scheme == "smtps" else {
            throw refuse("a URL whose scheme is smtp:// or smtps://, not \(scheme)://")
        }
        guard let host = parts.host, !host.isEmpty else {
            throw refuse("a URL that names the mail server: smtp://mail.example.org:587")
        }
        var security: Security = scheme == "smtps" ? .implicitTLS : .startTLS
        for item in parts.queryItems ?? [] {
            guard item.name == "starttls" else {
                throw refuse("no query settings other than starttls (required or never), not “\(item.name)”")
            }
            guard scheme == "smtp", let choice = Security(rawValue: item.value ?? ""), choice != .implicitTLS else {
                throw refuse(scheme == "smtps"
                    ? "no starttls setting with smtps://, which is TLS from the start"
                    : "starttls=required or starttls=never")
            }
            security = choice
        }
        if let port = parts.port, !(1...65_535).contains(port) {
            throw refuse("a port from 1 to 65535")
        }
        let user = parts.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
        let password = parts.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        if user != nil, password == nil {
            throw refuse("a password with the user: smtp://user:password@host")
        }
        return MailSettings(
            host: host, port: parts.port ?? (security == .implicitTLS ? 465 : 587), security: security,
            user: user, password: user == nil ? nil : password, from: from)
    }

    /// The URL as it may be shown in an error: without its password.
    static func hidingPassword(_ text: String) -> String {
        guard var parts = URLComponents(string: text), parts.password != nil else { return text }
        parts.password = "(hidden)"
        return parts.string ?? "(hidden)"
    }
}
