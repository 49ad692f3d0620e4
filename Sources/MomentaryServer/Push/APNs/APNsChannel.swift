import Foundation
import NIOCore
import NIOPosix

/// Delivers beeps through Apple Push Notification service: one POST per notification to
/// `/3/device/<token>`, each on its own stream of a long-lived HTTP/2 connection per APNs host
/// (`APNsConnection`), authenticated by a provider token (ES256 JWT) that is reused for tens of
/// minutes.
///
/// Call `shutdown()` before dropping a channel; later sends are refused.
public final class APNsChannel: PushChannel {
    public let name = "apns"
    public let configuration: APNsConfiguration
    public let tokens: APNsTokenProvider

    /// One event loop carries both connections: a provider needs few, and one loop keeps each
    /// connection's work on one thread.
    private let eventLoopGroup: MultiThreadedEventLoopGroup
    private let production: APNsConnection
    private let sandbox: APNsConnection
    private let requests: APNsRequestEncoder

    public init(configuration: APNsConfiguration, now: @escaping @Sendable () -> Date = { Date() }) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.configuration = configuration
        self.tokens = APNsTokenProvider(configuration: configuration, now: now)
        self.eventLoopGroup = group
        self.requests = APNsRequestEncoder(topic: configuration.topic)
        let trusted = configuration.extraTrustedCertificates
        production = APNsConnection(host: APNsHost(url: configuration.baseURL(sandbox: false)), trusting: trusted, group: group)
        // A configured server replaces both of Apple's hosts: then both environments share it.
        sandbox = configuration.serverURL == nil
            ? APNsConnection(host: APNsHost(url: configuration.baseURL(sandbox: true)), trusting: trusted, group: group)
            : production
    }

    public func send(_ message: PushMessage, to target: PushTarget) async -> PushOutcome {
        guard case .apns(let deviceToken, let sandbox) = target else {
            return .rejected(statusCode: nil, reason: "The APNs channel can only deliver to an APNs device token.", retryable: false)
        }
        guard Self.isWellFormedDeviceToken(deviceToken) else {
            // APNs would answer 400 BadDeviceToken; no point asking.
            return .unregistered(statusCode: nil, reason: "BadDeviceToken")
        }
        let body = APNsPayload(message).encoded()
        guard body.readableBytes <= APNsPayload.maximumSize else {
            return .rejected(
                statusCode: nil,
                reason: "PayloadTooLarge: the notification is \(body.readableBytes) bytes, over APNs' limit of \(APNsPayload.maximumSize).",
                retryable: false
            )
        }
        return await deliver(body, message: message, deviceToken: deviceToken, sandbox: sandbox)
    }

    /// Refuses further sends, closes the connections (requests still in flight are reported as
    /// unanswered, retryable) and releases the event loop. Shutting down twice does nothing more.
    public func shutdown() async {
        await production.shutdown()
        await sandbox.shutdown()
        try? await eventLoopGroup.shutdownGracefully()
    }

    /// Sends, and when APNs refuses the provider token sends once more with a new one — never
    /// more than once per notification, so a broken key cannot make us sign in a loop.
    private func deliver(_ body: ByteBuffer, message: PushMessage, deviceToken: String, sandbox: Bool) async -> PushOutcome {
        let connection = sandbox ? self.sandbox : production
        let timeout = TimeAmount.nanoseconds(Int64(configuration.requestTimeout * 1_000_000_000))
        var retriedWithNewToken = false
        while true {
            // Each attempt has its own deadline, which covers waiting for a free stream.
            let deadline = NIODeadline.now() + timeout
            let token: APNsProviderToken
            do {
                token = try await tokens.token()
            } catch {
                return .rejected(statusCode: nil, reason: "The APNs provider token could not be signed: \(error).", retryable: false)
            }
            let response: APNsResponse
            do {
                response = try await connection.send(
                    requests.request(for: message, deviceToken: deviceToken, body: body, to: connection.host, token: token),
                    deadline: deadline
                )
            } catch APNsConnectionError.shutDown {
                return .rejected(statusCode: nil, reason: "The APNs channel has been shut down.", retryable: true)
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

    /// Device tokens are hexadecimal bytes (32 today; Apple warns the length may grow).
    static func isWellFormedDeviceToken(_ token: String) -> Bool {
        // Checked byte by byte: hex digits are ASCII, so bytes and characters count the same.
        let bytes = token.utf8
        return !bytes.isEmpty && bytes.count <= 200 && bytes.count.isMultiple(of: 2)
            && bytes.allSatisfy { (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }
    }
}
