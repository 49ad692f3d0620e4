import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Open-Meteo's forecast (`/v1/forecast`) and air-quality (`/v1/air-quality`) APIs on 127.0.0.1,
/// for tests: each GET is answered in the shape the documentation shows (`hourly_units`, `hourly`
/// with `time` and one array per variable asked for, for the hours from `start_hour` to
/// `end_hour`), with the values set by the test. Each API can instead answer with a status and
/// body of the test's choosing, with JSON of another shape, or slowly. Every request is recorded.
public final class LocalOpenMeteoServer: Sendable {
    public enum API: String, Sendable, CaseIterable {
        case forecast, airQuality = "air-quality"
    }

    /// How an API answers.
    public enum Behaviour: Sendable, Equatable {
        case normal
        /// This status with this body (Open-Meteo's errors are `{"error":true,"reason":"…"}`).
        case status(Int, body: String)
        /// 200 with this body, whatever it is.
        case body(String)
        /// Answers normally, but only after this many seconds.
        case delay(seconds: Double)
    }

    public struct RecordedRequest: Sendable {
        public let api: API
        public let query: [String: String]
    }

    public let port: Int
    /// `http://127.0.0.1:<port>/v1/forecast` and `…/v1/air-quality`.
    public var forecastURL: String { "http://127.0.0.1:\(port)/v1/forecast" }
    public var airQualityURL: String { "http://127.0.0.1:\(port)/v1/air-quality" }

    private let state = LocalOpenMeteoState()
    private let serverChannel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let serverTask: Task<Void, Never>

    public static func start() async throws -> LocalOpenMeteoServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(wrappingChannelSynchronously: child)
                }
            }
        guard let port = channel.channel.localAddress?.port else {
            try? await channel.channel.close()
            throw LocalOpenMeteoServerError(description: "the listening socket reported no local port")
        }
        return LocalOpenMeteoServer(channel: channel, port: port)
    }

    private init(channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>, port: Int) {
        self.port = port
        self.serverChannel = channel
        let state = self.state
        serverTask = Task {
            try? await channel.executeThenClose { connections in
                await withTaskGroup(of: Void.self) { group in
                    do {
                        for try await connection in connections {
                            group.addTask { await Self.serve(connection, state: state) }
                        }
                    } catch {
                        // The listening socket closed.
                    }
                    group.cancelAll()
                }
            }
        }
    }

    /// The value every hour gets for `variable` (nil: null), on whichever API it is asked of.
    public func set(_ variable: String, to value: Double?) async {
        await state.setValue(value, for: variable)
    }

    public func behave(_ behaviour: Behaviour, api: API) async {
        await state.setBehaviour(behaviour, for: api)
    }

    public func requests(_ api: API? = nil) async -> [RecordedRequest] {
        await state.requests.filter { api == nil || $0.api == api }
    }

    public func stop() async {
        try? await serverChannel.channel.close()
        serverTask.cancel()
        await serverTask.value
    }

    private static func serve(_ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, state: LocalOpenMeteoState) async {
        try? await connection.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case .head(let head) = part else { continue }
                let (status, body) = await respond(to: head.uri, state: state)
                var headers = HTTPHeaders()
                headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
                headers.add(name: "Content-Length", value: String(body.utf8.count))
                headers.add(name: "Connection", value: head.isKeepAlive ? "keep-alive" : "close")
                try await outbound.write(.head(HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: status), headers: headers)))
                try await outbound.write(.body(.byteBuffer(ByteBuffer(string: body))))
                try await outbound.write(.end(nil))
                if !head.isKeepAlive { return }
            }
        }
    }

    private static func respond(to uri: String, state: LocalOpenMeteoState) async -> (Int, String) {
        let components = URLComponents(string: uri)
        let path = components?.path ?? ""
        guard let api = API.allCases.first(where: { path == "/v1/\($0.rawValue)" }) else {
            return (404, #"{"error":true,"reason":"Not found"}"#)
        }
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        await state.record(RecordedRequest(api: api, query: query))
        switch await state.behaviour(for: api) {
        case .status(let status, let body): return (status, body)
        case .body(let body): return (200, body)
        case .delay(let seconds):
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1_000)))
        case .normal: break
        }
        let values = await state.values
        return LocalOpenMeteoReply.body(for: query, values: values)
    }
}

public struct LocalOpenMeteoServerError: Error, CustomStringConvertible {
    public let description: String
}

actor LocalOpenMeteoState {
    var values: [String: Double?] = [:]
    var behaviours: [LocalOpenMeteoServer.API: LocalOpenMeteoServer.Behaviour] = [:]
    var requests: [LocalOpenMeteoServer.RecordedRequest] = []

    func setValue(_ value: Double?, for variable: String) { values[variable] = .some(value) }
    func setBehaviour(_ behaviour: LocalOpenMeteoServer.Behaviour, for api: LocalOpenMeteoServer.API) { behaviours[api] = behaviour }
    func behaviour(for api: LocalOpenMeteoServer.API) -> LocalOpenMeteoServer.Behaviour { behaviours[api] ?? .normal }
    func record(_ request: LocalOpenMeteoServer.RecordedRequest) { requests.append(request) }
}
