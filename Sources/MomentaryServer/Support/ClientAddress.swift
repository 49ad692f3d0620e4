import NIOCore
import Vapor

/// The address a request came from, for per-address limits (sign-in, registration, download
/// links), and whether it came over https. Behind a reverse proxy every request seems to come from the proxy, so when the peer is
/// one of `MOMENTARY_TRUSTED_PROXIES` the client is read from `X-Forwarded-For`: the rightmost
/// address not itself a trusted proxy (the leftmost entries are whatever the client chose to send).
/// A peer that is not trusted is taken as it is, whatever headers it sends.
enum ClientAddress {
    static func of(_ request: Request) -> String {
        let peer = peer(of: request)
        let trusted = request.application.momentaryConfiguration.trustedProxies
        guard trusted.contains(peer) else { return peer }
        let forwarded = request.headers[.xForwardedFor].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return forwarded.last { !trusted.contains($0) && !$0.isEmpty } ?? peer
    }

    /// Whether the client reached us over https: in production always (it runs behind TLS),
    /// otherwise when a trusted proxy says so in `X-Forwarded-Proto` (its last entry, the one the
    /// nearest proxy wrote). Any other peer's header is ignored: it could say anything.
    static func cameOverHTTPS(_ request: Request) -> Bool {
        let configuration = request.application.momentaryConfiguration
        if configuration.environmentName == "production" { return true }
        guard configuration.trustedProxies.contains(peer(of: request)) else { return false }
        let proto = request.headers["X-Forwarded-Proto"].flatMap { $0.split(separator: ",") }.last
        return proto?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    /// `https://host` (or `http://` when not over https) as the client addressed this server, for
    /// links a person takes elsewhere (a join link on paper, a data download link). A Host header
    /// with anything but a host name's characters gives `localhost` rather than a link to anywhere.
    static func origin(of request: Request) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        let host = request.headers.first(name: .host)
        let safeHost = host.flatMap { $0.isEmpty || $0.unicodeScalars.contains { !allowed.contains($0) } ? nil : $0 } ?? "localhost"
        return "\(cameOverHTTPS(request) ? "https" : "http")://\(safeHost)"
    }

    /// The address at the other end of the client's connection. Behind the front door every
    /// connection comes from the door, which says whose connection it relays (replacing any
    /// such header the client sent).
    static func peer(of request: Request) -> String {
        if request.application.isBehindFrontDoor {
            return request.headers.first(name: FrontDoor.clientAddressHeader) ?? "unknown"
        }
        return request.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Whether the request came in on the front door's metrics listener (`serve --metrics-port`).
    static func cameThroughMetricsPort(_ request: Request) -> Bool {
        request.application.isBehindFrontDoor
            && request.headers.first(name: FrontDoor.listenerHeader) == FrontDoor.Listener.metrics.rawValue
    }

    /// Whether `text` is an IPv4 or IPv6 address (as `MOMENTARY_TRUSTED_PROXIES` must list).
    static func isAddress(_ text: String) -> Bool {
        (try? SocketAddress(ipAddress: text, port: 0)) != nil
    }
}
