import NIOCore
import NIOHTTP2

/// Watches the frames of an APNs connection as a whole (stream 0, which the HTTP/2 handler passes
/// on): the server's SETTINGS, which carry its limit on concurrent streams, and GOAWAY, after which
/// no new stream may start on this connection.
final class APNsConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame

    /// Used when a server's SETTINGS do not name a limit (HTTP/2 then means "unlimited"); it is
    /// also what Apple's servers have advertised.
    static let unadvertisedStreamLimit = 1000

    /// Succeeds at the server's first SETTINGS: only then is the connection ready for requests.
    private let ready: EventLoopPromise<Void>
    private let streamLimitChanged: @Sendable (Int) -> Void
    private let goingAway: @Sendable () -> Void
    private var settingsSeen = false

    init(
        ready: EventLoopPromise<Void>,
        streamLimitChanged: @escaping @Sendable (Int) -> Void,
        goingAway: @escaping @Sendable () -> Void
    ) {
        self.ready = ready
        self.streamLimitChanged = streamLimitChanged
        self.goingAway = goingAway
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .settings(.settings(let settings)):
            let limit = settings.last { $0.parameter == .maxConcurrentStreams }?.value
            if let limit {
                streamLimitChanged(limit)
            } else if !settingsSeen {
                streamLimitChanged(Self.unadvertisedStreamLimit)
            }
            settingsSeen = true
            ready.succeed(())
        case .goAway:
            goingAway()
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        ready.fail(APNsConnectionError.noHTTP2Settings)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A failed handshake closes the connection by itself; errors of single streams reach
        // their own stream channels, not this one.
        ready.fail(error)
        context.fireErrorCaught(error)
    }
}
