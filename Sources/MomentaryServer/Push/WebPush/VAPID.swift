import Foundation

/// Voluntary Application Server Identification for Web Push (RFC 8292): the server signs a short
/// JWT with its own P-256 key so push services can tie messages to the key a browser subscribed with.
public enum VAPID {
    /// How long a token is valid; RFC 8292 §2 forbids more than 24 hours.
    public static let defaultTokenLifetime: TimeInterval = 12 * 3600
    public static let maximumTokenLifetime: TimeInterval = 24 * 3600
    /// A cached token is replaced when it has less than this left, so it never expires in flight.
    public static let renewalMargin: TimeInterval = 10 * 60

    /// The JWT `aud` claim: the origin (scheme, host, non-default port) of the push endpoint.
    public static func audience(for endpoint: URL) throws(VAPIDError) -> String {
        guard let scheme = endpoint.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = endpoint.host?.lowercased(), !host.isEmpty
        else { throw .invalidEndpoint(endpoint.absoluteString) }
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        guard let port = endpoint.port, port != defaultPort else { return "\(scheme)://\(hostPart)" }
        return "\(scheme)://\(hostPart):\(port)"
    }

    /// Checks the JWT `sub` claim: a `mailto:` address or an `https:` URL where the push service's
    /// operator can reach whoever runs this server.
    public static func validateSubject(_ subject: String) throws(VAPIDError) {
        let lowered = subject.lowercased()
        if lowered.hasPrefix("mailto:"), subject.dropFirst("mailto:".count).contains("@") { return }
        if lowered.hasPrefix("https://"), let url = URL(string: subject), url.host?.isEmpty == false { return }
        throw .invalidSubject(subject)
    }
}

/// A VAPID problem, described in one sentence that says what to change.
public enum VAPIDError: Error, Equatable, CustomStringConvertible {
    case invalidPrivateKey(reason: String)
    case invalidSubject(String)
    case invalidEndpoint(String)
    case invalidTokenLifetime(TimeInterval)
    case signingFailed(reason: String)

    public var description: String {
        switch self {
        case .invalidPrivateKey(let reason):
            "The VAPID private key is unusable: \(reason)."
        case .invalidSubject(let subject):
            "The VAPID subject “\(subject)” must be a mailto: address or an https: URL (RFC 8292 §2.1)."
        case .invalidEndpoint(let endpoint):
            "The push endpoint “\(endpoint)” is not an http or https URL with a host."
        case .invalidTokenLifetime(let seconds):
            "A VAPID token lifetime of \(Int(seconds)) seconds is outside \(Int(VAPID.renewalMargin) + 1)...\(Int(VAPID.maximumTokenLifetime)) seconds."
        case .signingFailed(let reason):
            "Signing the VAPID token failed: \(reason)."
        }
    }
}
