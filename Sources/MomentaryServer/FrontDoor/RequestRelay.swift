import NIOCore
import NIOHTTP1
import NIOPosix

/// The client's side of a relayed connection: parsed requests go to Vapor over a connection of
/// their own to its private socket, with the door's headers; Vapor's bytes come back unparsed
/// (`ResponseRelay`). Each side stops reading while the other cannot take more, so a large upload
/// or export passes through without piling up in memory.
final class RequestRelay: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let backendSocketPath: String
    private let clientAddress: String
    private let listener: FrontDoor.Listener
    private let deadlines: RequestDeadlines
    private let exchange: RelayedExchange
    private var backend: (any Channel)?
    /// Parts read before the connection to Vapor is up.
    private var waiting: [HTTPClientRequestPart] = []
    /// Set once the client side is closing: nothing more goes to Vapor.
    private var finished = false

    init(
        backendSocketPath: String, clientAddress: String, listener: FrontDoor.Listener,
        deadlines: RequestDeadlines, exchange: RelayedExchange
    ) {
        self.backendSocketPath = backendSocketPath
        self.clientAddress = clientAddress
        self.listener = listener
        self.deadlines = deadlines
        self.exchange = exchange
    }

    func channelActive(context: ChannelHandlerContext) {
        let client = context.channel
        // Nothing is read from the client until Vapor can take it.
        try? client.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        let exchange = NIOLoopBound(exchange, eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .channelInitializer { backend in
                backend.eventLoop.makeCompletedFuture {
                    // The client's framing headers go on as sent (the parser has checked them):
                    // NIO's own framing would drop the length of a body sent with TRACE, say,
                    // and Vapor would read that body as the next request.
                    var framing = HTTPRequestEncoder.Configuration()
                    framing.automaticallySetFramingHeaders = false
                    try backend.pipeline.syncOperations.addHandlers(
                        HTTPRequestEncoder(configuration: framing), ResponseRelay(client: client, exchange: exchange.value))
                }
            }
            .connect(unixDomainSocketPath: backendSocketPath)
            .assumeIsolated()
            .whenComplete { [self] result in
                switch result {
                case .success(let backend) where !finished:
                    self.backend = backend
                    for part in waiting { backend.write(part, promise: nil) }
                    waiting = []
                    backend.flush()
                    try? client.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
                case .success(let backend):
                    backend.close(promise: nil)
                case .failure:
                    // Vapor is not listening (starting or stopping): say so rather than hang up.
                    FrontDoorReply.unavailable.send(on: context)
                }
            }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            deadlines.headersArrived()
            if listener == .metrics && !["/metrics", "/healthz"].contains(head.uri.split(separator: "?").first.map(String.init)) {
                finished = true
                FrontDoorReply.metricsOnly.send(on: context)
                return
            }
            head.headers.remove(name: FrontDoor.clientAddressHeader)
            head.headers.remove(name: FrontDoor.listenerHeader)
            head.headers.add(name: FrontDoor.clientAddressHeader, value: clientAddress)
            head.headers.add(name: FrontDoor.listenerHeader, value: listener.rawValue)
            forward(.head(head))
        case .body(let buffer):
            forward(.body(.byteBuffer(buffer)))
        case .end(let trailers):
            deadlines.requestEnded()
            forward(.end(trailers))
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        backend?.flush()
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finished = true
        backend?.close(promise: nil)
        context.fireChannelInactive()
    }

    /// The client cannot take more of the response: stop reading Vapor until it can.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        backend?.setOption(ChannelOptions.autoRead, value: context.channel.isWritable).whenFailure { _ in }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The parser refused the bytes (or the socket failed): nothing more can be read in order.
        finished = true
        if error is HTTPParserError && exchange.responseBytes == 0 {
            FrontDoorReply.malformed.send(on: context)
        } else {
            context.close(promise: nil)
        }
    }

    private func forward(_ part: HTTPClientRequestPart) {
        guard !finished else { return }
        if let backend {
            backend.write(part, promise: nil)
        } else {
            waiting.append(part)
        }
    }
}

/// Vapor's side of a relayed connection: its bytes go to the client as they are.
final class ResponseRelay: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let client: any Channel
    private let exchange: RelayedExchange

    init(client: any Channel, exchange: RelayedExchange) {
        self.client = client
        self.exchange = exchange
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        exchange.responseBytes += buffer.readableBytes
        client.write(buffer, promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        client.flush()
    }

    /// Vapor closed (after `Connection: close`, or stopping): the client gets what was written, then the end.
    func channelInactive(context: ChannelHandlerContext) {
        let client = client
        client.writeAndFlush(client.allocator.buffer(capacity: 0)).whenComplete { _ in
            client.close(promise: nil)
        }
    }

    /// Vapor cannot take more of the request: stop reading the client until it can.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        exchange.readingPaused = !context.channel.isWritable
        client.setOption(ChannelOptions.autoRead, value: context.channel.isWritable).whenFailure { _ in }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
