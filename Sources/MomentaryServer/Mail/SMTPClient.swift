import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Sends one message to one recipient over a connection of its own (RFC 5321): EHLO, STARTTLS or
/// TLS from the start, AUTH PLAIN or LOGIN when the URL has a user, then MAIL, RCPT and DATA.
/// Every step waits at most `timeoutSeconds` for the server.
struct SMTPClient: Sendable {
    let settings: MailSettings
    private let tls: NIOSSLContext?

    init(settings: MailSettings) throws {
        self.settings = settings
        if settings.security == .none {
            tls = nil
        } else {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            if let file = settings.certificateAuthorityFile { configuration.trustRoots = .file(file) }
            tls = try NIOSSLContext(configuration: configuration)
        }
    }

    /// Sends `message`. `beforeCommit` runs when the server has everything but the final dot that
    /// commits the message, so the outbox can record that from here on the mail may have gone.
    func send(_ message: MailMessage, beforeCommit: @Sendable () async throws -> Void = {}) async throws {
        let (replies, continuation) = AsyncThrowingStream<SMTPReply, any Error>.makeStream()
        let timeout = TimeAmount.seconds(Int64(settings.timeoutSeconds))
        let (tls, host, implicitTLS) = (tls, settings.host, settings.security == .implicitTLS)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if implicitTLS, let tls {
                        try pipeline.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: Self.serverNameIndication(host)))
                    }
                    try pipeline.addHandler(IdleStateHandler(readTimeout: timeout))
                    try pipeline.addHandler(SMTPReplyReader(continuation))
                }
            }
            .connect(host: host, port: settings.port).get()
        let conversation = SMTPConversation(channel: channel, replies: replies)
        do {
            try await converse(conversation, message, beforeCommit: beforeCommit)
            channel.close(promise: nil)
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    private func converse(_ smtp: SMTPConversation, _ message: MailMessage, beforeCommit: @Sendable () async throws -> Void) async throws {
        _ = try await smtp.reply(to: "the connection", expecting: [220])
        let greeting = "EHLO \(Self.clientName(for: message.from))"
        var capabilities = try await smtp.send(greeting, step: "EHLO", expecting: [250]).lines
        if settings.security == .startTLS {
            guard capabilities.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) else { throw SMTPError.startTLSNotOffered }
            _ = try await smtp.send("STARTTLS", step: "STARTTLS", expecting: [220])
            try await smtp.startTLS(tls!, serverName: Self.serverNameIndication(settings.host))
            capabilities = try await smtp.send(greeting, step: "EHLO", expecting: [250]).lines
        }
        if let user = settings.user, let password = settings.password {
            try await authenticate(smtp, user: user, password: password, capabilities: capabilities)
        }
        _ = try await smtp.send("MAIL FROM:<\(message.from.address)>", step: "the sender", expecting: [250])
        _ = try await smtp.send("RCPT TO:<\(message.to.address)>", step: "the recipient", expecting: [250, 251])
        _ = try await smtp.send("DATA", step: "DATA", expecting: [354])
        try await smtp.write(Self.dotStuffed(message.rendered()))
        try await beforeCommit()
        _ = try await smtp.send(".", step: "the message", expecting: [250])
        _ = try? await smtp.send("QUIT", step: "QUIT", expecting: [221])
    }

    private func authenticate(_ smtp: SMTPConversation, user: String, password: String, capabilities: [String]) async throws {
        let offered = capabilities.first { $0.uppercased().hasPrefix("AUTH") }?
            .dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: " =")).uppercased()
            .split(separator: " ").map(String.init) ?? []
        let step = "the user name and password"
        if offered.contains("PLAIN") {
            let credentials = Data("\0\(user)\0\(password)".utf8).base64EncodedString()
            _ = try await smtp.send("AUTH PLAIN \(credentials)", step: step, expecting: [235])
        } else if offered.contains("LOGIN") {
            _ = try await smtp.send("AUTH LOGIN", step: step, expecting: [334])
            _ = try await smtp.send(Data(user.utf8).base64EncodedString(), step: step, expecting: [334])
            _ = try await smtp.send(Data(password.utf8).base64EncodedString(), step: step, expecting: [235])
        } else {
            throw SMTPError.noAuthenticationMethod(offered: offered.joined(separator: " "))
        }
    }

    /// A line that starts with a dot gets another (RFC 5321 §4.5.2), so no line of the message
    /// can end it early; the message ends with a line break before the final dot.
    static func dotStuffed(_ text: String) -> String {
        var stuffed = text.replacingOccurrences(of: "\r\n.", with: "\r\n..")
        if stuffed.hasPrefix(".") { stuffed = "." + stuffed }
        return stuffed.hasSuffix("\r\n") ? stuffed : stuffed + "\r\n"
    }

    /// The name EHLO introduces this client by: the sender's domain, which a relay checks the
    /// least suspiciously of the names at hand.
    static func clientName(for from: MailAddress) -> String { from.domain }

    /// Server Name Indication carries host names only; for an address the certificate is checked
    /// against the address itself.
    static func serverNameIndication(_ host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }
}

/// One connection's commands and replies, in order, from one task.
private final class SMTPConversation {
    let channel: any Channel
    private var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator

    init(channel: any Channel, replies: AsyncThrowingStream<SMTPReply, any Error>) {
        self.channel = channel
        self.replies = replies.makeAsyncIterator()
    }

    /// Writes to the server. A write that fails because the connection closed (a timeout, the
    /// server hanging up) reports why it closed, which the reply stream holds.
    func write(_ text: String) async throws {
        do {
            try await channel.writeAndFlush(ByteBuffer(string: text))
        } catch ChannelError.ioOnClosedChannel {
            _ = try await replies.next()
            throw SMTPError.connectionClosed
        }
    }

    func send(_ line: String, step: String, expecting codes: Set<Int>) async throws -> SMTPReply {
        try await write(line + "\r\n")
        return try await reply(to: step, expecting: codes)
    }

    func reply(to step: String, expecting codes: Set<Int>) async throws -> SMTPReply {
        guard let reply = try await replies.next() else { throw SMTPError.connectionClosed }
        guard codes.contains(reply.code) else { throw SMTPError.refused(step: step, reply: reply) }
        return reply
    }

    /// Puts TLS under the conversation, after the server's 220 to STARTTLS.
    func startTLS(_ context: NIOSSLContext, serverName: String?) async throws {
        let channel = channel
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: serverName), position: .first)
        }.get()
    }
}
