import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A Web Push service on 127.0.0.1 for tests and benchmarks: it hands out subscriptions
/// (`/push/<id>` endpoints with real P-256 keys), checks each POST as a push service would
/// (TTL, aes128gcm, VAPID JWT against `k=`, the 4096-byte limit), decrypts the message as the
/// subscribed browser would, and records it. Per subscription it can instead answer with a
/// canned status (410, 429, 500, …). Plain HTTP/1.1 by default (AsyncHTTPClient posts to http://
/// as well); with `tls` it serves https, as real push services do, so a subscription's endpoint
/// passes the server's https-only check and the whole signalling path can be exercised.
public final class LocalWebPushService: Sendable {
    public let port: Int
    /// `http://127.0.0.1:<port>` (or https with TLS): the `aud` a VAPID token for this service must carry.
    public let origin: String
    private let state = LocalWebPushState()
    private let serverChannel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let serverTask: Task<Void, Never>

    /// Starts listening on `port` (0 picks a free one; read `port` afterwards). `now` is the clock
    /// VAPID expiry is judged by.
    /// With `tls` it answers over TLS with that certificate (trust its authority in the client).
    public static func start(
        port: Int = 0, tls certificates: LocalAPNsCertificates? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> LocalWebPushService {
        let tls = try certificates.map { certificates in
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificates.serverCertificatePEM.utf8), format: .pem))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(certificates.serverPrivateKeyPEM.utf8), format: .pem)))
            configuration.applicationProtocols = ["http/1.1"]
            return try NIOSSLContext(configuration: configuration)
        }
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: port) { child in
                child.eventLoop.makeCompletedFuture {
                    if let tls { try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: child)
                }
            }
        guard let boundPort = channel.channel.localAddress?.port else {
            try? await channel.channel.close()
            throw LocalWebPushServiceError(description: "the listening socket reported no local port")
        }
        return LocalWebPushService(channel: channel, port: boundPort, scheme: tls == nil ? "http" : "https", now: now)
    }

    private init(
        channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>,
        port: Int, scheme: String, now: @escaping @Sendable () -> Date
    ) {
        self.port = port
        self.origin = "\(scheme)://127.0.0.1:\(port)"
        self.serverChannel = channel
        let verifier = VAPIDVerifier(origin: origin, now: now)
        let state = self.state
        serverTask = Task {
            try? await channel.executeThenClose { connections in
                await withTaskGroup(of: Void.self) { group in
                    do {
                        for try await connection in connections {
                            group.addTask { await Self.serve(connection, state: state, verifier: verifier) }
                        }
                    } catch {
                        // The listening socket closed: stop accepting and let open connections end.
                    }
                    group.cancelAll()
                }
            }
        }
    }

    /// A new subscription, as a browser's `pushManager.subscribe()` would report it. With
    /// `applicationServerKey` the service accepts only messages signed with that VAPID key.
    public func makeSubscription(applicationServerKey: String? = nil) async -> WebPushTestSubscription {
        await Self.addSubscription(applicationServerKey: applicationServerKey, origin: origin, state: state)
    }

    /// Answers every message to the subscription with `response` (nil: accept normally again).
    public func respond(to subscriptionID: String, with response: CannedWebPushResponse?) async {
        await state.setCannedResponse(response, for: subscriptionID)
    }

    /// Accepted messages, oldest first, for one subscription or all.
    public func receivedMessages(for subscriptionID: String? = nil) async -> [ReceivedWebPushMessage] {
        await state.received.filter { subscriptionID == nil || $0.subscriptionID == subscriptionID }
    }

    /// Requests answered with an error status, oldest first.
    public func refusals() async -> [WebPushRefusal] {
        await state.refusals
    }

    /// Stops listening and closes open connections; later requests fail to connect.
    public func stop() async {
        try? await serverChannel.channel.close()
        serverTask.cancel()
        await serverTask.value
    }

    private static func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
        state: LocalWebPushState, verifier: VAPIDVerifier
    ) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                    body.clear()
                case .body(var chunk):
                    body.writeBuffer(&chunk)
                case .end:
                    guard let requestHead = head else { continue }
                    var headers: [String: String] = [:]
                    for (name, value) in requestHead.headers { headers[name.lowercased()] = value }
                    let request = Request(
                        method: requestHead.method.rawValue, path: requestHead.uri, headers: headers,
                        body: Data(body.readableBytesView))
                    let response = await respond(to: request, state: state, verifier: verifier)
                    try await write(response, keepAlive: requestHead.isKeepAlive, version: requestHead.version, to: outbound)
                    if !requestHead.isKeepAlive { return }
                }
            }
        }
    }

    private static func write(
        _ response: CannedWebPushResponse, keepAlive: Bool, version: HTTPVersion,
        to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws {
        var headers = HTTPHeaders()
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.utf8.count))
        headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let status = HTTPResponseStatus(statusCode: response.status)
        try await outbound.write(.head(HTTPResponseHead(version: version, status: status, headers: headers)))
        if !response.body.isEmpty {
            try await outbound.write(.body(.byteBuffer(ByteBuffer(string: response.body))))
        }
        try await outbound.write(.end(nil))
    }
}

/// The local push service could not start.
public struct LocalWebPushServiceError: Error, CustomStringConvertible {
    public let description: String
}
