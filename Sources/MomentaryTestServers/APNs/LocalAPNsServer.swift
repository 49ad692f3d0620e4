import Foundation
import NIOCore
import NIOPosix

/// An APNs-compatible server on 127.0.0.1 for tests and benchmarks: HTTP/2 over TLS with a
/// certificate from a CA made at start-up, checking each request the way APNs does (provider
/// token signature, `kid`, `iss`, `iat` age, headers, payload) and answering like APNs, with
/// replies the test can script per device token or for the next requests.
///
/// ```
/// let server = try await LocalAPNsServer.start(expecting: .init(key: key, topic: "org.example.app"))
/// try server.writeCertificateAuthority(to: caPath)   // for APNS_CA_FILE
/// await server.reply(.unregistered, toAllFor: "ab12…")
/// … send through the client at server.url …
/// let requests = await server.receivedRequests()
/// try await server.stop()
/// ```
public final class LocalAPNsServer: Sendable {
    /// The port the server listens on (chosen by the system).
    public let port: Int
    public let certificates: LocalAPNsCertificates

    private let state: LocalAPNsState
    private let group: MultiThreadedEventLoopGroup
    private let serverChannel: any Channel
    private let running: Task<Void, Never>

    /// The base URL to give the client (`APNS_URL`).
    public var url: URL { URL(string: "https://127.0.0.1:\(port)")! }

    /// The CA certificate the client must trust (`APNS_CA_FILE`).
    public var certificateAuthorityPEM: String { certificates.certificateAuthorityPEM }

    /// Starts listening. `keepsRequests: false` records only counts (for long benchmark runs).
    /// `maxConcurrentStreams` is the SETTINGS_MAX_CONCURRENT_STREAMS the server advertises
    /// (swift-nio-http2's default of 100 when nil).
    public static func start(
        expecting expectations: LocalAPNsExpectations,
        keepsRequests: Bool = true,
        threads: Int = 1,
        maxConcurrentStreams: Int? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> LocalAPNsServer {
        let certificates = try LocalAPNsCertificates.generate(now: now())
        let state = LocalAPNsState(expectations: expectations, keepsRequests: keepsRequests, now: now)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(threads, 1))
        do {
            let listener = try await LocalAPNsPipeline.bind(
                group: group, certificates: certificates, maxConcurrentStreams: maxConcurrentStreams)
            let serverChannel = listener.channel
            guard let port = serverChannel.localAddress?.port else {
                try? await serverChannel.close()
                throw LocalAPNsServerError.noPort
            }
            let running = Task { await LocalAPNsPipeline.serve(listener, state: state) }
            return LocalAPNsServer(
                port: port, certificates: certificates, state: state, group: group,
                serverChannel: serverChannel, running: running
            )
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private init(
        port: Int, certificates: LocalAPNsCertificates, state: LocalAPNsState,
        group: MultiThreadedEventLoopGroup, serverChannel: any Channel, running: Task<Void, Never>
    ) {
        self.port = port
        self.certificates = certificates
        self.state = state
        self.group = group
        self.serverChannel = serverChannel
        self.running = running
    }

    /// Writes the CA certificate (PEM) to `path`, for `APNS_CA_FILE`.
    public func writeCertificateAuthority(to path: String) throws {
        try Data(certificateAuthorityPEM.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    // MARK: Scripting replies

    /// The next requests, whatever their device token, get these replies in order (when they
    /// pass the protocol checks). E.g. `[.expiredProviderToken]`: only the next one is refused.
    public func replyToNext(_ replies: LocalAPNsReply...) async {
        await state.enqueueNext(replies)
    }

    /// Requests for `deviceToken` get these replies in order, then the fixed reply or 200.
    public func reply(_ replies: [LocalAPNsReply], toNextFor deviceToken: String) async {
        await state.enqueue(replies, for: deviceToken)
    }

    /// Every request for `deviceToken` gets `reply` (nil restores 200).
    public func reply(_ reply: LocalAPNsReply?, toAllFor deviceToken: String) async {
        await state.setFixedReply(reply, for: deviceToken)
    }

    /// From now on, every provider token received so far is refused with `reply` (403
    /// ExpiredProviderToken by default), as APNs does once a token is stale; new tokens pass.
    public func refuseProviderTokensSeenSoFar(with reply: LocalAPNsReply = .expiredProviderToken) async {
        await state.refuseTokensSeenSoFar(with: reply)
    }

    /// From now on, the request that is the `requests`-th on its connection is preceded by a
    /// GOAWAY naming the last stream the server has begun processing (that request's, or a later
    /// one's); those are answered and the connection then closed, as APNs does when it moves a
    /// provider elsewhere. Requests on later streams are neither processed nor recorded. nil
    /// stops this.
    public func goAway(afterRequestsPerConnection requests: Int?) async {
        await state.setGoAway(afterRequestsPerConnection: requests)
    }

    /// The next request is not answered (nor recorded): its connection is closed abruptly.
    public func dropConnectionAtNextRequest() async {
        await state.dropConnectionAtNextRequest()
    }

    /// The next request is neither answered nor recorded; its stream stays open until the client
    /// gives up on it (or the connection closes), or until `releaseHeldRequests()`.
    public func holdNextRequest() async {
        await state.holdNextRequest()
    }

    /// Requests held and still open are handled and answered now, like any other.
    public func releaseHeldRequests() async {
        await state.releaseHeldRequests()
    }

    // MARK: Inspection

    /// The most streams that were open at once (request arrived, answer not yet written), over
    /// all connections.
    public func peakConcurrentStreams() async -> Int {
        await state.peakOpenStreams
    }

    public func receivedRequests() async -> [LocalAPNsReceivedRequest] {
        await state.requests
    }

    public func requestCount() async -> Int {
        await state.requestCount
    }

    /// How many TLS connections were accepted since the start.
    public func connectionCount() async -> Int {
        await state.connectionCount
    }

    /// Closes the listener and every open connection, then releases the threads. Stopping a
    /// stopped server does nothing.
    public func stop() async throws {
        guard await state.markStopped() else { return }
        try? await serverChannel.close()
        for connection in await state.closeAllConnections() {
            try? await connection.close()
        }
        await running.value
        try await group.shutdownGracefully()
    }
}

public enum LocalAPNsServerError: Error, CustomStringConvertible {
    case noPort

    public var description: String {
        switch self {
        case .noPort: "The local APNs server bound a socket without a port."
        }
    }
}
