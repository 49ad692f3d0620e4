import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Delivers beeps through Apple Push Notification service: one POST per notification to
/// `/3/device/<token>` over a long-lived HTTP/2 connection, authenticated by a provider token
/// (ES256 JWT) that is reused for tens of minutes.
///
/// Call `shutdown()` before dropping a channel that created its own HTTP client.
public final class APNsChannel: PushChannel {
    public let name = "apns"
    public let configuration: APNsConfiguration
    public let tokens: APNsTokenProvider

    private let client: HTTPClient
    /// Set when this channel made its client (and its event loop) and so must shut them down.
    private let ownedEventLoopGroup: MultiThreadedEventLoopGroup?

    /// Creates a channel with its own HTTP client. The client runs on one event loop so that all
    /// notifications share one HTTP/2 connection per host, as Apple asks providers to do.
    public init(configuration: APNsConfiguration, now: @escaping @Sendable () -> Date = { Date() }) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.configuration = configuration
        self.tokens = APNsTokenProvider(configuration: configuration, now: now)
        self.client = HTTPClient(eventLoopGroup: group, configuration: Self.clientConfiguration(for: configuration))
        self.ownedEventLoopGroup = group
    }

    /// Creates a channel on a client the caller owns (and shuts down); the client must trust the
    /// APNs host's certificate.
    public init(configuration: APNsConfiguration, httpClient: HTTPClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.tokens = APNsTokenProvider(configuration: configuration, now: now)
        self.client = httpClient
        self.ownedEventLoopGroup = nil
    }

    /// The HTTP client settings APNs needs: HTTP/2 (negotiated by ALPN), the extra trusted CA when
    /// one is configured, no redirects, and idle connections kept open for a while because
    /// beeps come in bursts and Apple discourages reconnecting for every notification. A failed
    /// connection attempt is reported at once (as a retryable rejection) rather than retried
    /// until the request times out: the dispatcher decides when to try again.
    public static func clientConfiguration(for configuration: APNsConfiguration) -> HTTPClient.Configuration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if !configuration.extraTrustedCertificates.isEmpty {
            tls.additionalTrustRoots = [.certificates(configuration.extraTrustedCertificates)]
        }
        var settings = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        settings.httpVersion = .automatic
        settings.timeout = .init(connect: .seconds(10))
        settings.connectionPool.idleTimeout = .minutes(10)
        settings.connectionPool.retryConnectionEstablishment = false
        return settings
    }

    public func send(_ message: PushMessage, to target: PushTarget) async -> PushOutcome {
        guard case .apns(let deviceToken, let sandbox) = target else {
            return .rejected(statusCode: nil, reason: "The APNs channel can only deliver to an APNs device token.", retryable: false)
        }
        guard Self.isWellFormedDeviceToken(deviceToken) else {
            // APNs would answer 400 BadDeviceToken; no point asking.
            return .unregistered(statusCode: nil, reason: "BadDeviceToken")
        }
        let body: Data
        do {
            body = try APNsPayload(message).encoded()
        } catch {
            return .rejected(statusCode: nil, reason: "The notification could not be encoded: \(error).", retryable: false)
        }
        guard body.count <= APNsPayload.maximumSize else {
            return .rejected(
                statusCode: nil,
                reason: "PayloadTooLarge: the notification is \(body.count) bytes, over APNs' limit of \(APNsPayload.maximumSize).",
                retryable: false
            )
        }
        return await deliver(body, message: message, deviceToken: deviceToken, sandbox: sandbox)
    }

    /// Releases the HTTP client and its event loop when this channel created them.
    public func shutdown() async throws {
        guard let ownedEventLoopGroup else { return }
        try await client.shutdown()
        try await ownedEventLoopGroup.shutdownGracefully()
    }

    /// Sends, and when APNs refuses the provider token sends once more with a new one — never
    /// more than once per notification, so a broken key cannot make us sign in a loop.
    private func deliver(_ body: Data, message: PushMessage, deviceToken: String, sandbox: Bool) async -> PushOutcome {
        var retriedWithNewToken = false
        while true {
            let token: APNsProviderToken
            do {
                token = try await tokens.token()
            } catch {
                return .rejected(statusCode: nil, reason: "The APNs provider token could not be signed: \(error).", retryable: false)
            }
            let response: APNsResponse
            do {
                response = try await post(body, message: message, deviceToken: deviceToken, sandbox: sandbox, token: token)
            } catch {
                return .rejected(statusCode: nil, reason: "APNs could not be reached: \(error).", retryable: true)
            }
            switch response.verdict {
            case .finished(let outcome):
                return outcome
            case .retryWithNewToken(let otherwise):
                if retriedWithNewToken { return otherwise }
                retriedWithNewToken = true
                await tokens.invalidate(token)
            }
        }
    }

    private func post(
        _ body: Data, message: PushMessage, deviceToken: String, sandbox: Bool, token: APNsProviderToken
    ) async throws -> APNsResponse {
        var base = configuration.baseURL(sandbox: sandbox).absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        var request = HTTPClientRequest(url: "\(base)/3/device/\(deviceToken)")
        request.method = .POST
        request.headers = Self.headers(for: message, topic: configuration.topic, token: token)
        request.body = .bytes(body)

        let timeout = TimeAmount.milliseconds(Int64(configuration.requestTimeout * 1000))
        let response = try await client.execute(request, timeout: timeout)
        let reply = try await response.body.collect(upTo: 64 * 1024)
        return APNsResponse(
            status: Int(response.status.code),
            reason: APNsResponse.reason(fromBody: Data(reply.readableBytesView)),
            apnsID: response.headers.first(name: "apns-id")
        )
    }

    static func headers(for message: PushMessage, topic: String, token: APNsProviderToken) -> HTTPHeaders {
        // 0 tells APNs to try once and not store the notification; a beep past its answer window
        // is worthless, so the dispatcher normally gives an expiry.
        let expiration = message.expiresAt.map { Int($0.timeIntervalSince1970.rounded(.down)) } ?? 0
        return [
            "authorization": "bearer \(token.jwt)",
            "apns-topic": topic,
            "apns-push-type": "alert",
            "apns-priority": "10",
            "apns-expiration": String(max(expiration, 0)),
            "apns-id": message.beepID.uuidString.lowercased(),
        ]
    }

    /// Device tokens are hexadecimal bytes (32 today; Apple warns the length may grow).
    static func isWellFormedDeviceToken(_ token: String) -> Bool {
        !token.isEmpty && token.count <= 200 && token.count.isMultiple(of: 2)
            && token.unicodeScalars.allSatisfy { $0.isASCII && Character($0).isHexDigit }
    }
}
