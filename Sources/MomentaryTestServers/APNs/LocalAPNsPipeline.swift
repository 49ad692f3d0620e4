import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// The network side of `LocalAPNsServer`: TLS (ALPN `h2`), HTTP/2 with one child channel per
/// stream, each stream read as one HTTP request and answered once.
enum LocalAPNsPipeline {
    typealias Stream = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    typealias Connection = (channel: any Channel, streams: NIOHTTP2Handler.AsyncStreamMultiplexer<Stream>)
    typealias Listener = NIOAsyncChannel<Connection, Never>

    static func bind(
        group: MultiThreadedEventLoopGroup, certificates: LocalAPNsCertificates, maxConcurrentStreams: Int?
    ) async throws -> Listener {
        let tls = try tlsContext(certificates)
        let http2 = {
            var http2 = NIOHTTP2Handler.Configuration()
            if let maxConcurrentStreams {
                http2.connection.initialSettings = nioDefaultSettings.filter { $0.parameter != .maxConcurrentStreams }
                    + [HTTP2Setting(parameter: .maxConcurrentStreams, value: maxConcurrentStreams)]
            }
            return http2
        }()
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    let streams = try channel.pipeline.syncOperations.configureAsyncHTTP2Pipeline(mode: .server, configuration: http2) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                            return try Stream(wrappingChannelSynchronously: stream)
                        }
                    }
                    return (channel: channel, streams: streams)
                }
            }
    }

    private static func tlsContext(_ certificates: LocalAPNsCertificates) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificates.serverCertificatePEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(certificates.serverPrivateKeyPEM.utf8), format: .pem))
        )
        // APNs speaks HTTP/2 only.
        configuration.applicationProtocols = ["h2"]
        return try NIOSSLContext(configuration: configuration)
    }

    /// Accepts connections until the listener closes.
    static func serve(_ listener: Listener, state: LocalAPNsState) async {
        await withDiscardingTaskGroup { group in
            do {
                try await listener.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await serve(connection, state: state) }
                    }
                }
            } catch {
                // The listener was closed: the server is stopping.
            }
        }
    }

    private static func serve(_ connection: Connection, state: LocalAPNsState) async {
        let id = await state.connectionOpened(connection.channel)
        await withDiscardingTaskGroup { group in
            do {
                for try await stream in connection.streams.inbound {
                    // Decided here, in the order the client opened its streams, not in the order
                    // their tasks happen to run: on a loaded machine the fourth request to arrive
                    // could be the thirtieth stream, and a GOAWAY then named every stream.
                    let streamID = try await stream.channel.getOption(HTTP2StreamChannelOptions.streamID).get()
                    let action = await state.connectionAction(forRequestOn: id, streamID: Int(streamID))
                    group.addTask { await serve(stream, streamID: Int(streamID), action: action, connectionID: id, state: state) }
                }
            } catch {
                // The connection failed or was closed; its streams end with it.
            }
        }
        await state.connectionClosed(id)
    }

    private static func serve(
        _ stream: Stream, streamID: Int, action: LocalAPNsConnectionAction, connectionID: Int, state: LocalAPNsState
    ) async {
        let streamChannel = stream.channel
        let token = await state.streamOpened()
        // True once the stream has been counted as finished.
        let finished = try? await stream.executeThenClose { inbound, outbound -> Bool in
            var head: HTTPRequestHead?
            var body = ByteBuffer()
            reading: for try await part in inbound {
                switch part {
                case .head(let requestHead): head = requestHead
                case .body(var chunk): body.writeBuffer(&chunk)
                case .end: break reading
                }
            }
            guard let head else { return false }

            let connection = streamChannel.parent
            switch action {
            case .keepOpen:
                break
            case .ignoreAfterGoAway:
                // Left open, neither answered nor reset, until the connection closes, as a server
                // ignores such streams. Reset at once, one could reach the client before the
                // GOAWAY it follows (written by another stream's task), and the client could not
                // tell it unprocessed.
                await state.streamFinished(token)
                try? await streamChannel.closeFuture.get()
                return true
            case .dropWithoutAnswer:
                await state.streamFinished(token)
                try? await connection?.close()
                return true
            case .holdWithoutAnswer:
                // Whichever comes first completes it (a promise's second completion is ignored).
                let release = streamChannel.eventLoop.makePromise(of: Void.self)
                streamChannel.closeFuture.whenComplete { _ in release.succeed(()) }
                await state.keepHeld(until: release)
                try? await release.futureResult.get()
                guard streamChannel.isActive else {
                    await state.streamFinished(token)
                    return true
                }
            case .goAwayWithAnswer(let lastStreamID):
                let goAway = HTTP2Frame(
                    streamID: .rootStream,
                    payload: .goAway(lastStreamID: HTTP2StreamID(lastStreamID), errorCode: .noError, opaqueData: nil)
                )
                try await connection?.writeAndFlush(goAway)
            }

            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let reply = await state.handle(
                method: head.method.rawValue, path: head.uri, headers: headers,
                body: Data(body.readableBytesView), connectionID: connectionID
            )
            await state.streamFinished(token)
            try await outbound.write(contentsOf: response(to: reply, apnsID: headers["apns-id"]))
            if await state.answerWritten(streamID: streamID, on: connectionID), let connection {
                // Closed a moment after the last answer it owes (a client that has its answers
                // closes first); a fixed delay after the GOAWAY's own answer was outrun on a
                // loaded machine by the other streams still being answered.
                connection.eventLoop.scheduleTask(in: .seconds(1)) { connection.close(promise: nil) }
            }
            return true
        }
        if finished != true { await state.streamFinished(token) }
    }

    /// APNs' answer: `apns-id` always (ours echoed, or one it made up), and for errors a JSON
    /// body with the reason, plus the time the token went invalid for 410.
    private static func response(to reply: LocalAPNsReply, apnsID: String?) -> [HTTPServerResponsePart] {
        var headers = HTTPHeaders()
        headers.add(name: "apns-id", value: apnsID ?? UUID().uuidString.lowercased())
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        guard let reason = reply.reason else { return [.head(head), .end(nil)] }

        struct ErrorBody: Encodable {
            var reason: String
            var timestamp: Int?
        }
        let timestamp = reply.status == 410 ? Int(Date().timeIntervalSince1970 * 1000) : nil
        let json = (try? JSONEncoder().encode(ErrorBody(reason: reason, timestamp: timestamp))) ?? Data()
        var withBody = head
        withBody.headers.add(name: "content-type", value: "application/json")
        withBody.headers.add(name: "content-length", value: String(json.count))
        return [.head(withBody), .body(.byteBuffer(ByteBuffer(bytes: json))), .end(nil)]
    }
}
