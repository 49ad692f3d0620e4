import NIOCore
import NIOPosix
import Synchronization

/// A TCP connection for tests that send bytes as no well-behaved client would (a byte at a time,
/// a request never finished) and read whatever comes back until the server closes it.
struct RawConnection {
    let channel: any Channel
    private let received: Received

    static func open(port: Int) async throws -> RawConnection {
        let received = Received()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(received) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, received: received)
    }

    /// Sends `text`; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) async -> Bool {
        do {
            try await channel.writeAndFlush(ByteBuffer(string: text))
            return true
        } catch {
            return false
        }
    }

    var isOpen: Bool { channel.isActive }

    /// Everything the server sent so far.
    var text: String { received.text }

    /// Waits for the server to close the connection, at most `limit`; whether it did.
    func closedByServer(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while channel.isActive && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return !channel.isActive
    }

    /// Waits until the server has sent `expected`, at most `limit`; whether it did.
    func receives(_ expected: String, within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !text.contains(expected) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return text.contains(expected)
    }

    func close() async {
        try? await channel.close()
    }

    private final class Received: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let bytes = Mutex(ByteBuffer())

        var text: String { bytes.withLock { String(buffer: $0) } }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            bytes.withLock { $0.writeBuffer(&buffer) }
        }
    }
}
