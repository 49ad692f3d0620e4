import Foundation
import NIOCore
import NIOHTTP2

/// Sends one notification on its own HTTP/2 stream and completes `answer` with APNs' reply:
/// the `:status`, the `apns-id` header and the `reason` from an error body. A stream that ends
/// any other way (reset, connection lost, write failed) fails `answer`.
final class APNsStreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    /// APNs error bodies are a few dozen bytes; anything bigger is not APNs.
    static let maximumAnswerBody = 64 * 1024

    private let request: APNsRequest
    private let answer: EventLoopPromise<APNsResponse>
    private var sent = false
    private var status: Int?
    private var apnsID: String?
    private var body = ByteBuffer()

    init(request: APNsRequest, answer: EventLoopPromise<APNsResponse>) {
        self.request = request
        self.answer = answer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { send(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context: context)
        context.fireChannelActive()
    }

    private func send(context: ChannelHandlerContext) {
        guard !sent else { return }
        sent = true
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.cascadeFailure(to: answer)
        context.write(wrapOutboundOut(.headers(.init(headers: request.headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.data(.init(data: .byteBuffer(request.body), endStream: true))), promise: written)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .headers(let frame):
            // Informational (1xx) heads are skipped; APNs sends none, but HTTP/2 allows them.
            if status == nil, let code = frame.headers.first(name: ":status").flatMap(Int.init), code >= 200 {
                status = code
                apnsID = frame.headers.first(name: "apns-id")
            }
            if frame.endStream { finish() }
        case .data(let frame):
            if case .byteBuffer(var chunk) = frame.data,
               body.readableBytes + chunk.readableBytes <= Self.maximumAnswerBody {
                body.writeBuffer(&chunk)
            }
            if frame.endStream { finish() }
        default:
            break
        }
    }

    private func finish() {
        guard let status else {
            answer.fail(APNsConnectionError.malformedAnswer)
            return
        }
        answer.succeed(APNsResponse(
            status: status, reason: APNsResponse.reason(fromBody: Data(body.readableBytesView)), apnsID: apnsID
        ))
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Does nothing when the answer is already in.
        answer.fail(APNsConnectionError.closedBeforeAnswer)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answer.fail(error)
        context.close(promise: nil)
    }
}
