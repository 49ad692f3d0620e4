import Foundation
import NIOCore
import NIOHPACK
import Synchronization

/// One notification as it goes on an HTTP/2 stream: the header block and the JSON body.
struct APNsRequest: Sendable {
    var headers: HPACKHeaders
    var body: ByteBuffer
}

/// Builds requests for one app topic. The headers that stay the same for every notification
/// (provider token, topic, push type, priority) are prepared once per provider token and marked
/// indexable, so HPACK sends the ~200-byte token in full once per connection and afterwards as
/// a one-byte index; the headers unique to a notification (path, id, expiry) are marked
/// non-indexable so they never push the shared ones out of the compression table.
final class APNsRequestEncoder: Sendable {
    private let topic: String
    private let shared = Mutex<(jwt: String, headers: HPACKHeaders)?>(nil)

    init(topic: String) {
        self.topic = topic
    }

    func request(
        for message: PushMessage, deviceToken: String, body: ByteBuffer,
        to host: APNsHost, token: APNsProviderToken
    ) -> APNsRequest {
        // 0 tells APNs to try once and not store the notification; a beep past its answer window
        // is worthless, so the dispatcher normally gives an expiry.
        let expiration = message.expiresAt.map { Int($0.timeIntervalSince1970.rounded(.down)) } ?? 0
        var headers = HPACKHeaders()
        headers.reserveCapacity(12)
        // Pseudo-headers come first, as HTTP/2 requires.
        headers.add(name: ":method", value: "POST")
        headers.add(name: ":scheme", value: "https")
        headers.add(name: ":authority", value: host.authority)
        headers.add(name: ":path", value: "\(host.pathPrefix)/3/device/\(deviceToken)", indexing: .nonIndexable)
        headers.add(contentsOf: sharedHeaders(for: token))
        headers.add(name: "apns-expiration", value: String(max(expiration, 0)), indexing: .nonIndexable)
        headers.add(name: "apns-id", value: message.id.uuidString.lowercased(), indexing: .nonIndexable)
        // A reminder, or a beep resent after a crash, replaces the beep's notification on the
        // phone rather than standing beside it.
        headers.add(name: "apns-collapse-id", value: message.id.uuidString.lowercased(), indexing: .nonIndexable)
        return APNsRequest(headers: headers, body: body)
    }

    private func sharedHeaders(for token: APNsProviderToken) -> HPACKHeaders {
        if let cached = shared.withLock({ $0 }), cached.jwt == token.jwt { return cached.headers }
        let headers: HPACKHeaders = [
            "authorization": "bearer \(token.jwt)",
            "apns-topic": topic,
            "apns-push-type": "alert",
            "apns-priority": "10",
        ]
        shared.withLock { $0 = (token.jwt, headers) }
        return headers
    }
}

/// Where one APNs gateway is: what the connection dials and what requests name.
struct APNsHost: Sendable, Hashable {
    var host: String
    var port: Int
    /// `host` or `host:port`, for `:authority`.
    var authority: String
    /// A path the configured URL adds before `/3/device/…` (empty for Apple's hosts).
    var pathPrefix: String

    init(url: URL) {
        let host = url.host ?? "localhost"
        self.host = host
        port = url.port ?? 443
        authority = url.port.map { "\(host):\($0)" } ?? host
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        pathPrefix = path
    }

    /// The name to send in TLS SNI: none for an IP address, which SNI does not allow.
    var serverNameIndication: String? {
        let isIPAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        return isIPAddress ? nil : host
    }
}
