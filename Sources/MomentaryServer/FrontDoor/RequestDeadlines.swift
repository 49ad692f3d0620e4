import NIOCore

/// What the two halves of one relayed connection share (both run on the connection's event loop).
final class RelayedExchange {
    /// Bytes of responses passed to the client so far: once any have gone, a reply of the door's
    /// own could land inside one of Vapor's, so a late request is cut off without one.
    var responseBytes = 0
    /// While Vapor is not taking the body as fast as it comes, the client is not read from, and a
    /// slow body is not the client's fault.
    var readingPaused = false
}

/// Sees a connection's raw bytes before they are parsed and cuts off a request that is too slow:
/// its headers must be complete within `headerTimeout` of its first byte, and its body must bring
/// at least `FrontDoor.Settings.minimumBodyBytes` in every `headerTimeout`. The time between
/// requests, and while Vapor works on an answer, belongs to the idle timeout instead.
final class RequestDeadlines: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum Phase {
        case betweenRequests, headers, body
    }

    private let headerTimeout: TimeAmount
    private let exchange: RelayedExchange
    private let metrics: ServerMetrics
    private var phase = Phase.betweenRequests
    private var timer: Scheduled<Void>?
    private var bodyBytesThisStretch = 0
    private var context: ChannelHandlerContext?

    init(headerTimeout: TimeAmount, exchange: RelayedExchange, metrics: ServerMetrics) {
        self.headerTimeout = headerTimeout
        self.exchange = exchange
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytes
        switch phase {
        case .betweenRequests where bytes > 0:
            phase = .headers
            schedule { $0.expire(.headersTooSlow, reason: "headers") }
        case .body:
            bodyBytesThisStretch += bytes
        default:
            break
        }
        context.fireChannelRead(data)
    }

    /// The parser has the whole head: the body's pace is watched from here.
    func headersArrived() {
        phase = .body
        bodyBytesThisStretch = 0
        scheduleBodyCheck()
    }

    /// The parser has the whole request: nothing is owed until the next one starts.
    func requestEnded() {
        timer?.cancel()
        timer = nil
        phase = .betweenRequests
    }

    private func scheduleBodyCheck() {
        schedule { deadlines in
            if deadlines.bodyBytesThisStretch < FrontDoor.Settings.minimumBodyBytes && !deadlines.exchange.readingPaused {
                deadlines.expire(.bodyTooSlow, reason: "body")
            } else {
                deadlines.bodyBytesThisStretch = 0
                deadlines.scheduleBodyCheck()
            }
        }
    }

    private func schedule(_ action: @escaping (RequestDeadlines) -> Void) {
        guard let context else { return }
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: headerTimeout) { [self] in
            action(self)
        }
    }

    private func expire(_ reply: FrontDoorReply, reason: String) {
        guard let context else { return }
        metrics.counter("requests_timed_out_total", labels: [("reason", reason)]).increment()
        phase = .betweenRequests
        if exchange.responseBytes == 0 {
            reply.send(on: context)
        } else {
            context.close(promise: nil)
        }
    }
}
