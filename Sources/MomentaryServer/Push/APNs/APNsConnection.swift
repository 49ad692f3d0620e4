import Foundation
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// The HTTP/2 connection to one APNs host, as Apple asks providers to keep it: opened on first
/// use, one stream per notification, never more streams at once than the server's
/// SETTINGS_MAX_CONCURRENT_STREAMS, and opened again when the server closes it or says GOAWAY.
///
/// A connection attempt that fails is reported at once to the requests waiting for it (as a
/// retryable rejection: the dispatcher decides when to try again), and the next attempt waits a
/// back-off that doubles from 0.25 s up to 30 s; requests in that pause are refused at once too,
/// so an unreachable APNs costs no timeouts.
final class APNsConnection: Sendable {
    static let connectTimeout = TimeAmount.seconds(10)
    static let firstBackoff = TimeAmount.milliseconds(250)
    static let longestBackoff = TimeAmount.seconds(30)

    let host: APNsHost
    private let group: any EventLoopGroup
    private let tls: TLSConfiguration
    private let state = Mutex(State())

    private struct Live: Sendable {
        let generation: Int
        let channel: any Channel
        let handler: NIOLoopBound<APNsConnectionHandler>
    }

    private enum Phase {
        case idle
        case connecting(generation: Int, EventLoopFuture<Live>)
        case ready(Live)
        case backingOff(error: any Error, until: NIODeadline)
        case shutDown
    }

    private struct State {
        var phase = Phase.idle
        var generation = 0
        /// Connections up to this generation have closed or said GOAWAY.
        var retiredUpTo = 0
        var failedAttempts = 0
    }

    init(host: APNsHost, trusting extraCertificates: [NIOSSLCertificate], group: any EventLoopGroup) {
        self.host = host
        self.group = group
        var tls = TLSConfiguration.makeClientConfiguration()
        if !extraCertificates.isEmpty {
            tls.additionalTrustRoots = [.certificates(extraCertificates)]
        }
        // APNs speaks HTTP/2 only.
        tls.applicationProtocols = ["h2"]
        self.tls = tls
    }

    /// Sends `request` on a new stream and returns the answer; throws when there was none before
    /// `deadline` (which includes waiting for a free stream) or the connection failed.
    ///
    /// A notification the server never processed (the connection went away before it was sent,
    /// or GOAWAY named an earlier last stream) is sent again on the next connection while its
    /// deadline allows: APNs cannot have delivered it. Only on a newer connection: a stream
    /// refused by a connection that carries on is not sent again at once on that same one (it
    /// would be refused again, over and over), but given back as not sent, for the dispatcher's
    /// later retry.
    func send(_ request: APNsRequest, deadline: NIODeadline) async throws -> APNsResponse {
        var notSentOn: Int?
        while true {
            let live = try await liveConnection()
            if let notSentOn, live.generation <= notSentOn { throw APNsConnectionError.notSent }
            do {
                return try await withUnsafeThrowingContinuation { sender in
                    live.channel.eventLoop.execute {
                        live.handler.value.submit(request, deadline: deadline, sender: sender)
                    }
                }
            } catch APNsConnectionError.notSent where NIODeadline.now() < deadline {
                notSentOn = live.generation
            }
        }
    }

    /// Refuses new requests and closes the connection; requests still in flight fail as
    /// unanswered, and those waiting for a stream are refused.
    func shutdown() async {
        let phase = state.withLock { state in
            defer { state.phase = .shutDown }
            return state.phase
        }
        switch phase {
        case .ready(let live):
            try? await live.channel.close()
        case .connecting(_, let opening):
            if let live = try? await opening.get() { try? await live.channel.close() }
        case .idle, .backingOff, .shutDown:
            break
        }
    }

    // MARK: Connection life cycle

    private enum Next {
        case use(Live)
        case wait(EventLoopFuture<Live>)
        case open(generation: Int, EventLoopPromise<Live>)
        case fail(any Error)
    }

    private func liveConnection() async throws -> Live {
        let next: Next = state.withLock { state in
            // A connection that is closing may not have reported it yet (its streams learn first).
            if case .ready(let live) = state.phase, !live.channel.isActive {
                state.retiredUpTo = max(state.retiredUpTo, live.generation)
                state.phase = .idle
            }
            switch state.phase {
            case .ready(let live):
                return .use(live)
            case .connecting(_, let opening):
                return .wait(opening)
            case .shutDown:
                return .fail(APNsConnectionError.shutDown)
            case .backingOff(let error, let until) where NIODeadline.now() < until:
                return .fail(error)
            case .idle, .backingOff:
                state.generation += 1
                let promise = group.next().makePromise(of: Live.self)
                state.phase = .connecting(generation: state.generation, promise.futureResult)
                return .open(generation: state.generation, promise)
            }
        }
        switch next {
        case .use(let live):
            return live
        case .wait(let opening):
            return try await opening.get()
        case .fail(let error):
            throw error
        case .open(let generation, let promise):
            promise.completeWithTask { try await self.open(generation: generation) }
            promise.futureResult.whenComplete { self.opened(generation: generation, $0) }
            return try await promise.futureResult.get()
        }
    }

    private func opened(generation: Int, _ result: Result<Live, any Error>) {
        state.withLock { state in
            // Shut down meanwhile: `shutdown()` closes what it was waiting for.
            guard case .connecting(generation, _) = state.phase else { return }
            switch result {
            case .success(let live):
                state.failedAttempts = 0
                // Closed or told to go away before anyone used it: the next request dials again.
                state.phase = generation <= state.retiredUpTo ? .idle : .ready(live)
            case .failure(let error):
                state.failedAttempts += 1
                state.phase = .backingOff(error: error, until: .now() + Self.backoff(afterFailures: state.failedAttempts))
            }
        }
    }

    /// The connection of `generation` takes no new streams (it closed, or the server sent GOAWAY
    /// and will close it once its streams are answered).
    private func retire(generation: Int) {
        state.withLock { state in
            state.retiredUpTo = max(state.retiredUpTo, generation)
            if case .ready(let live) = state.phase, live.generation == generation {
                state.phase = .idle
            }
        }
    }

    static func backoff(afterFailures failures: Int) -> TimeAmount {
        let doublings = min(max(failures - 1, 0), 16)
        return min(firstBackoff * (1 << doublings), longestBackoff)
    }

    private func open(generation: Int) async throws -> Live {
        let context = try NIOSSLContext(configuration: tls)
        let host = self.host
        let (channel, handler, ready) = try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(Self.connectTimeout)
            .connect(host: host.host, port: host.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLClientHandler(context: context, serverHostname: host.serverNameIndication))
                    var http2 = NIOHTTP2Handler.ConnectionConfiguration()
                    // APNs never opens streams towards a provider.
                    http2.initialSettings = nioDefaultSettings + [HTTP2Setting(parameter: .enablePush, value: 0)]
                    // Every header sent is built by APNsRequestEncoder from checked parts (a hex
                    // device token, a topic without whitespace, a JWT, digits, a UUID), and of an
                    // answer only `:status` and `apns-id` are read; re-validating both header blocks
                    // on every stream took a large share of the event loop's time (figures:
                    // BENCHMARKS.md, `momentary-bench apns`).
                    http2.headerBlockValidation = .disabled
                    try pipeline.addHandler(NIOHTTP2Handler(mode: .client, connectionConfiguration: http2))
                    let ready = channel.eventLoop.makePromise(of: Void.self)
                    let handler = APNsConnectionHandler(ready: ready, retired: { [weak self] in self?.retire(generation: generation) })
                    try pipeline.addHandler(handler)
                    let timeout = channel.eventLoop.scheduleTask(in: Self.connectTimeout) {
                        ready.fail(APNsConnectionError.noHTTP2Settings)
                    }
                    ready.futureResult.whenComplete { _ in timeout.cancel() }
                    return (channel, NIOLoopBound(handler, eventLoop: channel.eventLoop), ready.futureResult)
                }
            }
        channel.closeFuture.whenComplete { [weak self] _ in self?.retire(generation: generation) }
        do {
            try await ready.get()
        } catch {
            try? await channel.close()
            throw error
        }
        return Live(generation: generation, channel: channel, handler: handler)
    }
}
