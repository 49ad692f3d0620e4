import NIOCore

/// A server's reply: its code and its lines' texts (`250-PIPELINING`, `250 SMTPUTF8` is one
/// reply of code 250 with two lines).
struct SMTPReply: Sendable, Equatable {
    let code: Int
    let lines: [String]

    var isPositive: Bool { (200..<400).contains(code) }
    /// A 5xx reply: trying again will not help.
    var isPermanentFailure: Bool { (500..<600).contains(code) }
    var text: String { "\(code) \(lines.joined(separator: " / "))" }
}

/// Reads the server's bytes into whole replies and hands them to the client; a timeout (an idle
/// read) or a closed connection ends the stream with an error.
final class SMTPReplyReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let replies: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    private var pending: [UInt8] = []
    private var lines: [String] = []
    /// A reply longer than this is not from a mail server.
    private static let maximumLineBytes = 4_096

    init(_ replies: AsyncThrowingStream<SMTPReply, any Error>.Continuation) {
        self.replies = replies
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        pending += buffer.readBytes(length: buffer.readableBytes) ?? []
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: ["\r"])
            pending.removeSubrange(...end)
            take(line, context: context)
        }
        if pending.count > Self.maximumLineBytes { fail(SMTPError.malformedReply("a line longer than \(Self.maximumLineBytes) bytes"), context: context) }
    }

    private func take(_ line: String, context: ChannelHandlerContext) {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)),
              bytes.count == 3 || bytes[3] == UInt8(ascii: " ") || bytes[3] == UInt8(ascii: "-") else {
            fail(SMTPError.malformedReply(line), context: context)
            return
        }
        lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
        if bytes.count == 3 || bytes[3] == UInt8(ascii: " ") {
            replies.yield(SMTPReply(code: code, lines: lines))
            lines = []
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            fail(SMTPError.timedOut, context: context)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        replies.finish(throwing: SMTPError.connectionClosed)
        context.fireChannelInactive()
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        replies.finish(throwing: error)
        context.close(promise: nil)
    }
}

enum SMTPError: Error, CustomStringConvertible, Equatable {
    case malformedReply(String)
    case timedOut
    case connectionClosed
    /// The server answered a step with a failure; `permanent` for a 5xx reply.
    case refused(step: String, reply: SMTPReply)
    case startTLSNotOffered
    case noAuthenticationMethod(offered: String)

    /// Whether sending again later may succeed.
    var isTransient: Bool {
        switch self {
        case .refused(_, let reply): !reply.isPermanentFailure
        case .startTLSNotOffered, .noAuthenticationMethod: false
        case .malformedReply, .timedOut, .connectionClosed: true
        }
    }

    var description: String {
        switch self {
        case .malformedReply(let line): "the mail server sent something that is not an SMTP reply: \(line.prefix(200))"
        case .timedOut: "the mail server did not answer in time"
        case .connectionClosed: "the mail server closed the connection"
        case .refused(let step, let reply): "the mail server refused \(step): \(reply.text.prefix(300))"
        case .startTLSNotOffered: "the mail server does not offer STARTTLS, which MOMENTARY_SMTP_URL requires (starttls=never allows plain text)"
        case .noAuthenticationMethod(let offered): "the mail server offers no password login this client speaks (PLAIN or LOGIN); it offers: \(offered.isEmpty ? "none" : offered)"
        }
    }
}
