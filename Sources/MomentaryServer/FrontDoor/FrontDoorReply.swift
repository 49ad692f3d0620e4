import Foundation
import MomentaryCore
import NIOCore
import NIOHTTP1

/// The few answers the front door gives itself, before or instead of Vapor: the API's JSON error
/// body on a connection the door then closes.
struct FrontDoorReply {
    let code: APIErrorCode
    let message: String
    var retryAfterSeconds: Int?

    static func tooBusy(_ refusal: ConnectionCount.Refusal) -> FrontDoorReply {
        let message = switch refusal {
        case .limit: "The server has as many connections open as it allows; try again in a moment."
        case .addressLimit: "Too many connections are open from your address; close some and try again."
        }
        return FrontDoorReply(code: .serviceUnavailable, message: message, retryAfterSeconds: 1)
    }

    static let headersTooSlow = FrontDoorReply(
        code: .requestTimeout, message: "The request's headers did not arrive in time.")
    static let bodyTooSlow = FrontDoorReply(
        code: .requestTimeout, message: "The request's body arrived too slowly.")
    static let malformed = FrontDoorReply(
        code: .badRequest, message: "The request is not well-formed HTTP/1.1.")
    static let unavailable = FrontDoorReply(
        code: .serviceUnavailable, message: "The server is not ready to answer; try again in a moment.", retryAfterSeconds: 1)
    static let metricsOnly = FrontDoorReply(
        code: .notFound, message: "This port serves only /metrics and /healthz.")

    /// The whole response, ending the connection.
    func bytes(allocator: ByteBufferAllocator) -> ByteBuffer {
        let body = (try? WireCoding.makeEncoder().encode(APIErrorBody(error: .init(code: code.rawValue, message: message)))) ?? Data()
        // The status is the one the API answers this code with, so the door and Vapor agree.
        let status = HTTPResponseStatus(statusCode: code.httpStatus)
        var head = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        head += "Content-Type: application/json; charset=utf-8\r\n"
        head += "Content-Length: \(body.count)\r\n"
        head += "X-Content-Type-Options: nosniff\r\n"
        if let retryAfterSeconds { head += "Retry-After: \(retryAfterSeconds)\r\n" }
        head += "Connection: close\r\n\r\n"
        var buffer = allocator.buffer(capacity: head.utf8.count + body.count)
        buffer.writeString(head)
        buffer.writeBytes(body)
        return buffer
    }

    /// Writes the reply and closes the connection once it is written.
    func send(on context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(NIOAny(bytes(allocator: context.channel.allocator))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

/// Answers a connection the door will not serve, as soon as it opens, and closes it.
final class RefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let reply: FrontDoorReply

    init(reply: FrontDoorReply) {
        self.reply = reply
    }

    func channelActive(context: ChannelHandlerContext) {
        reply.send(on: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Whatever the client sends is not read: the reply is already on its way.
    }
}
