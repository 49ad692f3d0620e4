import Foundation
import MomentaryCore
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Vapor

/// What every connection from the network passes before it reaches Vapor's HTTP server, which has
/// no hook below the parsed request. The door gives a request's headers a
/// deadline and its body a minimum pace, so a client trickling bytes ("slowloris") cannot hold a
/// connection; closes idle connections; and limits connections in all and per client address.
///
/// Vapor listens only on a Unix socket in a folder no other user can open, so every request it
/// sees came through the door, and the door's word on who the client is can be trusted.
final class FrontDoor: Sendable {
    struct Settings: Sendable {
        /// A request's headers must be complete this long after its first byte arrives; its body
        /// must bring at least `minimumBodyBytes` in every stretch of this length.
        var headerTimeout: TimeAmount
        var idleTimeout: TimeAmount
        var maxConnections: Int
        /// Not applied to `trustedProxies`, whose connections carry many clients.
        var maxConnectionsPerAddress: Int
        var trustedProxies: Set<String>

        static let minimumBodyBytes = 1024

        init(_ configuration: Configuration) {
            headerTimeout = .seconds(Int64(configuration.headerTimeoutSeconds))
            idleTimeout = .seconds(Int64(configuration.idleTimeoutSeconds))
            maxConnections = configuration.maxConnections
            maxConnectionsPerAddress = configuration.maxConnectionsPerAddress
            trustedProxies = configuration.trustedProxies
        }
    }

    /// Which listener a request came in on: `/metrics` may have a port of its own.
    enum Listener: String, Sendable {
        case main, metrics
    }

    /// Headers the door sets on every request it relays (replacing any the client sent).
    static let clientAddressHeader = "Momentary-Client-Address"
    static let listenerHeader = "Momentary-Listener"

    let settings: Settings
    let backendSocketPath: String
    let connections = ConnectionCount()
    let metrics: ServerMetrics
    private let socketFolder: URL
    private let listeners = Mutex<[any Channel]>([])

    init(settings: Settings, metrics: ServerMetrics) throws {
        self.settings = settings
        self.metrics = metrics
        let folder = try ScratchFolder.make("socket")
        socketFolder = folder
        backendSocketPath = folder.appendingPathComponent("http.sock").path
        metrics.gauge("connections_open").set(0)
        for reason in ["limit", "address_limit"] { _ = metrics.counter("connections_refused_total", labels: [("reason", reason)]) }
        for reason in ["headers", "body"] { _ = metrics.counter("requests_timed_out_total", labels: [("reason", reason)]) }
    }

    /// Puts Vapor behind the door: it will listen on the private socket. Call before the server starts.
    func install(in app: Application) {
        app.http.server.configuration.address = .unixDomainSocket(path: backendSocketPath)
        app.storage[FrontDoorKey.self] = true
    }

    /// Starts accepting connections for `listener`; returns the port bound (useful with port 0).
    func open(hostname: String, port: Int, listener: Listener, on group: any EventLoopGroup) async throws -> Int {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socket(IPPROTO_TCP, TCP_NODELAY), value: 1)
            .childChannelInitializer { [self] channel in accept(channel, on: listener) }
        let channel = try await bootstrap.bind(host: hostname, port: port).get()
        listeners.withLock { $0.append(channel) }
        return channel.localAddress?.port ?? port
    }

    /// Stops accepting and removes the private socket folder.
    func close() async {
        let channels = listeners.withLock { channels in
            defer { channels = [] }
            return channels
        }
        for channel in channels { try? await channel.close() }
        try? FileManager.default.removeItem(at: socketFolder)
    }

    private func accept(_ channel: any Channel, on listener: Listener) -> EventLoopFuture<Void> {
        let address = channel.remoteAddress?.ipAddress ?? "unknown"
        let perAddress = settings.trustedProxies.contains(address) ? nil : settings.maxConnectionsPerAddress
        let refusal = connections.admit(address, limit: settings.maxConnections, perAddress: perAddress)
        return channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            if let refusal {
                metrics.counter("connections_refused_total", labels: [("reason", refusal.rawValue)]).increment()
                try pipeline.addHandler(RefusingHandler(reply: .tooBusy(refusal)))
                return
            }
            metrics.gauge("connections_open").set(Double(connections.total))
            channel.closeFuture.whenComplete { [connections, metrics] _ in
                connections.release(address)
                metrics.gauge("connections_open").set(Double(connections.total))
            }
            let exchange = RelayedExchange()
            let deadlines = RequestDeadlines(
                headerTimeout: settings.headerTimeout, exchange: exchange, metrics: metrics)
            try pipeline.addHandlers([
                IdleStateHandler(allTimeout: settings.idleTimeout),
                deadlines,
                ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
                RequestRelay(
                    backendSocketPath: backendSocketPath, clientAddress: address, listener: listener,
                    deadlines: deadlines, exchange: exchange),
            ])
        }
    }
}

struct FrontDoorKey: StorageKey {
    typealias Value = Bool
}

extension Application {
    /// Whether this application's server listens only behind a `FrontDoor`.
    var isBehindFrontDoor: Bool { storage[FrontDoorKey.self] ?? false }
}

/// Open connections, in all and per client address.
final class ConnectionCount: Sendable {
    enum Refusal: String {
        case limit, addressLimit = "address_limit"
    }

    private let state = Mutex<(total: Int, byAddress: [String: Int])>((0, [:]))

    var total: Int { state.withLock { $0.total } }

    /// Counts the connection in, or says why it is refused (and then does not count it).
    func admit(_ address: String, limit: Int, perAddress: Int?) -> Refusal? {
        state.withLock { state in
            if state.total >= limit { return .limit }
            let fromAddress = state.byAddress[address, default: 0]
            if let perAddress, fromAddress >= perAddress { return .addressLimit }
            state.total += 1
            state.byAddress[address] = fromAddress + 1
            return nil
        }
    }

    func release(_ address: String) {
        state.withLock { state in
            state.total -= 1
            let left = state.byAddress[address, default: 1] - 1
            state.byAddress[address] = left > 0 ? left : nil
        }
    }
}
