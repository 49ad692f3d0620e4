import NIOCore
import NIOHTTP2

/// Carries the notifications of one APNs connection directly on its HTTP/2 frames, with no
/// channel per stream: each notification takes the next client stream ID, its HEADERS and its
/// DATA (ending the stream) are written on the connection, and the reply frames, or the stream's
/// closure, answer it. Writes made in one event-loop turn share one flush.
///
/// No more streams are open at once than the server's SETTINGS_MAX_CONCURRENT_STREAMS (also when
/// it lowers the limit while streams are open); the other notifications wait in arrival order.
/// After GOAWAY, or once the connection closes, no stream is started: notifications that were
/// never sent, or that the server says it did not process (streams above GOAWAY's last stream
/// ID, REFUSED_STREAM), fail with `notSent`, which the sender may resend on a new connection.
final class APNsConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// Used when a server's SETTINGS do not name a limit (HTTP/2 then means "unlimited"); it is
    /// also what Apple's servers have advertised.
    static let unadvertisedStreamLimit = 1000
    /// Received body bytes are handed back to the connection's flow-control window in batches
    /// of this size (half of HTTP/2's default window). Without a stream multiplexer nobody else
    /// does it, and APNs' error bodies would otherwise close the window after ~64 KB.
    static let windowReturnBatch = 32 * 1024
    /// Client streams have odd IDs up to 2^31 - 1; a connection that used them all is replaced.
    static let lastClientStreamID = Int(Int32.max)

    /// Succeeds at the server's first SETTINGS: only then is the connection ready for requests.
    private let ready: EventLoopPromise<Void>
    /// Called once when this connection stops taking new streams.
    private let retired: @Sendable () -> Void
    private(set) var context: ChannelHandlerContext?

    private var streamLimit = 1
    private var settingsSeen = false
    private var nextStreamID = 1
    private var inFlight: [HTTP2StreamID: APNsPendingPush] = [:]
    private var waiting = CircularBuffer<APNsPendingPush>()
    private var takesNewStreams = true
    /// From the server's GOAWAY: streams above it were not processed.
    private var lastProcessedStreamID: HTTP2StreamID?
    private var flushScheduled = false
    private var unreturnedWindow = 0
    var deadlines = APNsDeadlines()

    init(ready: EventLoopPromise<Void>, retired: @escaping @Sendable () -> Void) {
        self.ready = ready
        self.retired = retired
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        closed()
        self.context = nil
    }

    // MARK: Sending

    /// Queues a notification; `sender` is answered exactly once.
    func submit(_ request: APNsRequest, deadline: NIODeadline, sender: UnsafeContinuation<APNsResponse, any Error>) {
        let push = APNsPendingPush(request: request, deadline: deadline, sender: sender)
        guard takesNewStreams, context != nil else {
            push.fail(APNsConnectionError.notSent)
            return
        }
        watchDeadline(of: push)
        if waiting.isEmpty && inFlight.count < streamLimit {
            send(push)
        } else {
            waiting.append(push)
        }
    }

    /// Sends waiting notifications while the server's limit allows.
    func admitWaiting() {
        while takesNewStreams, inFlight.count < streamLimit, let push = waiting.popFirst() {
            if !push.isAnswered { send(push) }
        }
    }

    private func send(_ push: APNsPendingPush) {
        guard let context else { return push.fail(APNsConnectionError.notSent) }
        let streamID = HTTP2StreamID(nextStreamID)
        nextStreamID += 2
        push.streamID = streamID
        inFlight[streamID] = push
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: push.request.headers)))), promise: nil)
        // A refused HEADERS fails this write too (the stream does not exist).
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenFailure { [self] error in
            self.streamEnded(streamID, failing: error)
        }
        let body = HTTP2Frame.FramePayload.Data(data: .byteBuffer(push.request.body), endStream: true)
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(body))), promise: written)
        scheduleFlush()
        if nextStreamID > Self.lastClientStreamID { stopTakingStreams() }
    }

    /// One flush for everything written in this event-loop turn.
    func scheduleFlush() {
        guard !flushScheduled, let context else { return }
        flushScheduled = true
        context.eventLoop.assumeIsolated().execute { [self] in
            self.flushScheduled = false
            self.context?.flush()
        }
    }

    // MARK: Receiving

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let headers):
            guard let push = inFlight[frame.streamID] else { return }
            push.received(headers.headers)
            if headers.endStream { answered(frame.streamID) }
        case .data(let data):
            returnWindow(data.data.readableBytes + (data.paddingBytes.map { $0 + 1 } ?? 0))
            guard let push = inFlight[frame.streamID] else { return }
            push.received(data.data)
            if data.endStream { answered(frame.streamID) }
        case .settings(.settings(let settings)):
            if let limit = settings.last(where: { $0.parameter == .maxConcurrentStreams })?.value {
                streamLimit = limit
            } else if !settingsSeen {
                streamLimit = Self.unadvertisedStreamLimit
            }
            settingsSeen = true
            ready.succeed(())
            admitWaiting()
        case .goAway(let lastStreamID, _, _):
            // The streams above `lastStreamID` are closed by the HTTP/2 handler right after.
            lastProcessedStreamID = min(lastProcessedStreamID ?? lastStreamID, lastStreamID)
            stopTakingStreams()
        default:
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let closed = event as? StreamClosedEvent, inFlight[closed.streamID] != nil {
            // Closed without a complete answer: reset by the server, or dropped after GOAWAY.
            let unprocessed = closed.reason == .refusedStream || wasNotProcessed(closed.streamID)
            streamEnded(closed.streamID, failing: unprocessed ? APNsConnectionError.notSent : APNsConnectionError.closedBeforeAnswer)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let streamError = error as? NIOHTTP2Errors.StreamError {
            streamEnded(streamError.streamID, failing: streamError.baseError)
            return
        }
        // Failed handshakes and HTTP/2 connection errors end the connection.
        ready.fail(error)
        context.close(promise: nil)
    }

    private func answered(_ streamID: HTTP2StreamID) {
        guard let push = inFlight.removeValue(forKey: streamID) else { return }
        push.finish()
        streamFreed()
    }

    /// Ends the stream's notification with `error`, unless it was answered already.
    func streamEnded(_ streamID: HTTP2StreamID, failing error: any Error) {
        guard let push = inFlight.removeValue(forKey: streamID) else { return }
        push.fail(error)
        streamFreed()
    }

    private func streamFreed() {
        deadlines.dropAnswered()
        admitWaiting()
        // A connection that took its last stream closes once its answers are in.
        if !takesNewStreams, inFlight.isEmpty { context?.close(promise: nil) }
    }

    private func wasNotProcessed(_ streamID: HTTP2StreamID) -> Bool {
        lastProcessedStreamID.map { streamID > $0 } ?? false
    }

    private func returnWindow(_ bytes: Int) {
        unreturnedWindow += bytes
        guard unreturnedWindow >= Self.windowReturnBatch, let context else { return }
        context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: unreturnedWindow))), promise: nil)
        unreturnedWindow = 0
        scheduleFlush()
    }

    // MARK: End of the connection

    private func stopTakingStreams() {
        guard takesNewStreams else { return }
        takesNewStreams = false
        retired()
        while let push = waiting.popFirst() { push.fail(APNsConnectionError.notSent) }
        if inFlight.isEmpty { context?.close(promise: nil) }
    }

    private func closed() {
        ready.fail(APNsConnectionError.noHTTP2Settings)
        stopTakingStreams()
        let lost = inFlight
        inFlight = [:]
        for (streamID, push) in lost {
            push.fail(wasNotProcessed(streamID) ? APNsConnectionError.notSent : APNsConnectionError.closedBeforeAnswer)
        }
        deadlines.stop()
    }
}
