import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Delivers beeps to browsers through their push service (RFC 8030), with the payload encrypted
/// for the subscription (RFC 8291) and the request signed with VAPID (RFC 8292).
public struct WebPushChannel: PushChannel {
    public let name = "webpush"
    /// How long the push service keeps an undelivered message when the beep gives no expiry.
    public static let defaultTimeToLive: TimeInterval = 3600
    public static let defaultRequestTimeout: Duration = .seconds(10)
    /// Push services answer with short bodies; anything past this is not read.
    static let maximumResponseBodyLength = 16 * 1024

    let httpClient: HTTPClient
    /// Whether the channel made `httpClient` itself (and so shuts it down).
    private(set) var ownsHTTPClient: Bool
    let authorizer: VAPID.Authorizer
    let requestTimeout: Duration
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - httpClient: the one client the server shares; its connect timeout applies too.
    ///   - requestTimeout: the deadline for the whole exchange with the push service.
    public init(
        httpClient: HTTPClient, authorizer: VAPID.Authorizer,
        requestTimeout: Duration = WebPushChannel.defaultRequestTimeout,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.httpClient = httpClient
        self.ownsHTTPClient = false
        self.authorizer = authorizer
        self.requestTimeout = requestTimeout
        self.now = now
    }

    /// A channel signing with the configured VAPID key and subject.
    public init(
        configuration: WebPushConfiguration, httpClient: HTTPClient,
        requestTimeout: Duration = WebPushChannel.defaultRequestTimeout,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(VAPIDError) {
        let authorizer = try VAPID.Authorizer(keyPair: configuration.keyPair, subject: configuration.subject, now: now)
        self.init(httpClient: httpClient, authorizer: authorizer, requestTimeout: requestTimeout, now: now)
    }

    /// A channel with a client of its own that also trusts `certificates` (`WEBPUSH_CA_FILE`: a
    /// local push service in tests). `shutdown()` closes that client.
    public init(
        configuration: WebPushConfiguration, trusting certificates: [NIOSSLCertificate],
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(VAPIDError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates(certificates)]
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10))))
        do {
            try self.init(configuration: configuration, httpClient: client, now: now)
        } catch {
            // Not syncShutdown: this may run on an event loop (tasks do, see ConcurrencyExecutor).
            _ = client.shutdown()
            throw error
        }
        self.ownsHTTPClient = true
    }

    /// Closes the client the channel made itself; a shared client is left to its owner.
    public func shutdown() async {
        guard ownsHTTPClient else { return }
        try? await httpClient.shutdown()
    }

    public func send(_ message: PushMessage, to target: PushTarget) async -> PushOutcome {
        guard case .webPush(let endpoint, let p256dh, let auth) = target else {
            let kind = if case .apns = target { "an APNs device token" } else { "no push target" }
            return .rejected(
                statusCode: nil, reason: "The webpush channel cannot deliver to \(kind).", retryable: false)
        }
        let request: HTTPClientRequest
        do {
            request = try await makeRequest(for: message, endpoint: endpoint, p256dh: p256dh, auth: auth)
        } catch {
            return .rejected(statusCode: nil, reason: error.description, retryable: false)
        }
        do {
            let response = try await httpClient.execute(request, timeout: timeAmount(requestTimeout))
            // Reading the body frees the connection for reuse; its text only enriches the reason.
            let body = try? await response.body.collect(upTo: Self.maximumResponseBodyLength)
            return Self.outcome(
                status: Int(response.status.code), headers: response.headers,
                body: body.map { String(buffer: $0) } ?? "")
        } catch {
            return .rejected(
                statusCode: nil, reason: "The push service at \(endpoint.host ?? "?") could not be reached: \(error).",
                retryable: true)
        }
    }

    /// The POST of RFC 8030 §5 with the encrypted payload and the VAPID header.
    func makeRequest(
        for message: PushMessage, endpoint: URL, p256dh: String, auth: String
    ) async throws(WebPushSendError) -> HTTPClientRequest {
        let timeToLive = try timeToLive(for: message)
        let body: Data
        do {
            let payload = try WebPushPayload(message).encoded()
            body = try WebPushEncryption.encrypt(payload, p256dh: p256dh, auth: auth)
        } catch let error as WebPushEncryptionError {
            throw .encryption(error)
        } catch {
            throw .encoding("\(error)")
        }
        let authorization: String
        do {
            authorization = try await authorizer.authorization(for: endpoint)
        } catch {
            throw .vapid(error)
        }

        var request = HTTPClientRequest(url: endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "TTL", value: String(timeToLive))
        request.headers.add(name: "Urgency", value: "high")
        // RFC 8030's Topic: a push service holding an undelivered message of the same beep
        // (a reminder, a resend after a crash) replaces it; 32 characters of the URL-safe alphabet.
        request.headers.add(name: "Topic", value: message.id.uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
        request.headers.add(name: "Authorization", value: authorization)
        request.body = .bytes(ByteBuffer(bytes: body))
        return request
    }

    /// Seconds until the beep expires (rounded up), or the default hour; a beep already past its
    /// expiry is not sent at all.
    func timeToLive(for message: PushMessage) throws(WebPushSendError) -> Int {
        guard let expiresAt = message.expiresAt else { return Int(Self.defaultTimeToLive) }
        let remaining = expiresAt.timeIntervalSince(now())
        guard remaining > 0 else { throw .expired(expiresAt) }
        return Int(remaining.rounded(.up))
    }

    private func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// Why a message was not handed to the push service at all.
enum WebPushSendError: Error, CustomStringConvertible {
    case encryption(WebPushEncryptionError)
    case vapid(VAPIDError)
    case encoding(String)
    case expired(Date)

    var description: String {
        switch self {
        case .encryption(let error): error.description
        case .vapid(let error): error.description
        case .encoding(let detail): "The Web Push payload could not be encoded: \(detail)."
        case .expired(let date): "The beep expired at \(date.formatted(.iso8601)) before it could be sent."
        }
    }
}
