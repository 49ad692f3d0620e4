import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SQLKit

/// The ingest benchmark's HTTP clients, run as a child process (`momentary-bench ingest-clients`)
/// so the server's CPU time can be told from theirs: in one process both run on the same event
/// loops and the same cooperative threads, and no per-thread reading separates them.
///
/// The parent writes the requests to a file (one a line: the Authorization header, a tab, the
/// JSON body, empty for a GET) and reads one JSON line back: elapsed time, latency percentiles,
/// acknowledged count and the clients' own CPU time over the timed phase. Every request of a run
/// has one method and path (`Target`): by default the uploads' `POST /api/v1/responses`, each
/// answered 201.
enum IngestClients {
    struct Report: Codable {
        let seconds: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        let acknowledged: Int
        let cpuSeconds: Double
    }

    /// What every request of a run asks for, and the only answer that counts as done.
    struct Target: Sendable {
        var method: HTTPMethod = .POST
        var path = "/api/v1/responses"
        var status: HTTPResponseStatus = .created

        static let uploads = Target()
    }

    static func writeRequests(_ requests: [(authorization: String, body: Data)], to url: URL) throws {
        var text = Data()
        for (authorization, body) in requests {
            text.append(Data(authorization.utf8))
            text.append(0x09)
            text.append(body)
            text.append(0x0A)
        }
        try text.write(to: url)
    }

    /// Child side: sends every request in the file, `concurrency` at a time, and prints the report.
    ///
    /// Each client is one keep-alive connection sending its share of the requests, each after the
    /// last one's answer, as a phone uploads. The clients share one event loop and speak HTTP/1.1
    /// through NIO's codec, with every request made before the timed phase: on the server's two
    /// cores, AsyncHTTPClient's pool and request machinery had cost a large fraction of what the
    /// server spent storing one (figures: BENCHMARKS.md, `momentary-bench ingest`).
    static func run(base: String, requestsFile: String, concurrency: Int, target: Target = .uploads) async throws {
        guard let url = URL(string: base), let host = url.host, let port = url.port else {
            throw BenchmarkError("ingest-clients needs a URL with a host and a port, not \(base)")
        }
        let lines = try String(contentsOfFile: requestsFile, encoding: .utf8).split(separator: "\n")
        let requests = lines.map { line -> Upload in
            let tab = line.firstIndex(of: "\t")!
            let body = line[line.index(after: tab)...]
            var head = HTTPRequestHead(version: .http1_1, method: target.method, uri: target.path, headers: [
                "Host": "\(host):\(port)", "Authorization": String(line[..<tab]),
            ])
            if !body.isEmpty {
                head.headers.add(name: "Content-Type", value: "application/json")
                head.headers.add(name: "Content-Length", value: "\(body.utf8.count)")
            }
            return Upload(head: head, body: ByteBuffer(substring: body))
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let cpuBefore = processCPUSeconds()
        let started = ContinuousClock.now
        let uploads = (0..<concurrency).map { worker in
            let mine = stride(from: worker, to: requests.count, by: concurrency).map { requests[$0] }
            let finished = loop.makePromise(of: [Double].self)
            let connected = ClientBootstrap(group: loop)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandlers(
                            IdleStateHandler(readTimeout: .seconds(30)),
                            SequentialUploads(requests: mine, expecting: target.status, finished: finished))
                    }
                }
                .connect(host: host, port: port)
            connected.whenFailure(finished.fail)
            return finished.futureResult
        }
        var latencies: [Double] = []
        for upload in uploads { latencies += try await upload.get() }
        let elapsed = IngestBenchmark.seconds(ContinuousClock.now - started)
        let cpu = processCPUSeconds() - cpuBefore
        try await group.shutdownGracefully()
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
        let report = Report(seconds: elapsed, p50Milliseconds: percentile(0.5), p99Milliseconds: percentile(0.99),
                            acknowledged: latencies.count, cpuSeconds: cpu)
        FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
    }

    /// Parent side: runs the clients as a child process of this executable and returns their report.
    static func spawn(base: URL, requestsFile: URL, concurrency: Int, target: Target = .uploads) async throws -> Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["ingest-clients", "--url", base.absoluteString, "--requests-file", requestsFile.path,
                             "--concurrency", String(concurrency), "--method", target.method.rawValue, "--path", target.path,
                             "--status", String(target.status.code)]
        let output = Pipe()
        process.standardOutput = output
        // Waited for without blocking a thread: the server in this process needs them all.
        try await withCheckedThrowingContinuation { (finished: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in finished.resume() }
            do { try process.run() } catch { finished.resume(throwing: error) }
        }
        // One line of JSON: well inside the pipe's buffer, so the child never waited on it.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("the ingest clients exited with status \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(Report.self, from: data)
    }
}

/// CPU time of a local PostgreSQL server: the postmaster and every process it has started, live
/// (from /proc) or ended (the children's time the kernel adds to the postmaster once it reaps
/// them). Read before and after the timed phase, the difference is what the database spent.
struct PostgresServerCPU {
    let postmaster: Int32

    /// The postmaster of the backend serving `sql`, when that server runs on this machine.
    static func find(on sql: any SQLDatabase) async throws -> PostgresServerCPU? {
        struct Row: Decodable { let pid: Int32 }
        guard let backend = try await sql.raw("SELECT pg_backend_pid() AS pid").first(decoding: Row.self)?.pid,
              let fields = stat(of: backend)
        else { return nil }
        return PostgresServerCPU(postmaster: Int32(fields[1]) ?? 0)
    }

    /// Seconds of CPU so far.
    func seconds() -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        if let fields = Self.stat(of: postmaster) {
            // utime, stime, cutime, cstime: fields 14 to 17 of /proc/PID/stat, here from 11 after the name.
            total += fields[11...14].compactMap { Double($0) }.reduce(0, +)
        }
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for name in processes {
            guard let pid = Int32(name), let fields = Self.stat(of: pid), Int32(fields[1]) == postmaster else { continue }
            total += fields[11...12].compactMap { Double($0) }.reduce(0, +)
        }
        return total / ticks
    }

    /// The fields of /proc/PID/stat after the command name (state first, then the parent's pid).
    private static func stat(of pid: Int32) -> [String]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ").map(String.init)
        return fields.count > 14 ? fields : nil
    }
}

/// One request of `IngestClients`, made before the timed phase.
private struct Upload: Sendable {
    let head: HTTPRequestHead
    let body: ByteBuffer
}

/// One client of `IngestClients`: sends its requests on its connection one at a time, each when
/// the last one's answer has ended, and fulfils `finished` with their latencies in seconds. Any
/// answer but the one expected, an error, 30 s without a byte from the server, or the connection
/// closing early fails it.
private final class SequentialUploads: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let requests: [Upload]
    private let expected: HTTPResponseStatus
    private let finished: EventLoopPromise<[Double]>
    private var next = 0
    private var sentAt = ContinuousClock.now
    private var status: HTTPResponseStatus?
    private var latencies: [Double] = []
    private var done = false

    init(requests: [Upload], expecting expected: HTTPResponseStatus, finished: EventLoopPromise<[Double]>) {
        self.requests = requests
        self.expected = expected
        self.finished = finished
        latencies.reserveCapacity(requests.count)
    }

    func channelActive(context: ChannelHandlerContext) {
        sendNext(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = head.status
        case .body:
            break
        case .end:
            guard status == expected else {
                return fail(context: context, BenchmarkError("unexpected status \(status?.code ?? 0)"))
            }
            latencies.append(IngestBenchmark.seconds(ContinuousClock.now - sentAt))
            sendNext(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(context: context, BenchmarkError("the server closed a connection after \(latencies.count) of \(requests.count) answers"))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context: context, error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else { return context.fireUserInboundEventTriggered(event) }
        fail(context: context, BenchmarkError("no answer within 30 s, after \(latencies.count) of \(requests.count) answers"))
    }

    private func sendNext(context: ChannelHandlerContext) {
        guard next < requests.count else {
            done = true
            finished.succeed(latencies)
            context.close(promise: nil)
            return
        }
        status = nil
        sentAt = .now
        context.write(wrapOutboundOut(.head(requests[next].head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(requests[next].body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        next += 1
    }

    private func fail(context: ChannelHandlerContext, _ error: any Error) {
        guard !done else { return }
        done = true
        finished.fail(error)
        context.close(promise: nil)
    }
}
