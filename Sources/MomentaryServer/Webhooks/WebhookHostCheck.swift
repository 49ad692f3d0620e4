import Foundation
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// A webhook's host name is looked up again before each delivery: a name that pointed at a
/// public address when the webhook was added may since point into the server's own network (a
/// private range, the cloud's metadata service, or this machine). Such a delivery is not sent.
/// The HTTP client resolves the name once more to connect, so a name switching within that
/// moment is not caught; literal addresses are checked when the webhook is added.
enum WebhookHostCheck {
    /// Why a delivery to `host` may not go out, or nil. `resolve` gives a name's addresses
    /// (tests pass their own).
    static func problem(host: String, resolve: @Sendable (String) async -> [String] = systemAddresses) async -> String? {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        // Literal addresses and this machine's own name were checked when the webhook was added.
        let literal = bare.contains(":") || bare.split(separator: ".").allSatisfy { Int($0) != nil }
        if bare == "localhost" || literal { return nil }
        let addresses = await resolve(bare)
        if let inside = addresses.first(where: { Webhooks.isPrivateNetworkAddress($0) || isLoopback($0) }) {
            return "\(host) now resolves to \(inside), an address of a private network or of this machine; the delivery was not sent"
        }
        return nil
    }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }

    /// The name's IPv4 and IPv6 addresses by the system's resolver, off the event loops; none when
    /// it does not resolve (the HTTP client then reports that itself).
    @Sendable static func systemAddresses(of name: String) async -> [String] {
        (try? await NIOThreadPool.singleton.runIfActive { () -> [String] in
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
            defer { freeaddrinfo(first) }
            var addresses: [String] = []
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let current = entry {
                var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                    addresses.append(String(cString: text))
                }
                entry = current.pointee.ai_next
            }
            return addresses
        }) ?? []
    }
}
