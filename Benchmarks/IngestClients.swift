import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix

/// The ingest benchmark's HTTP clients, run as a child process (`momentary-bench ingest-clients`)
/// so the server's CPU time can be told from theirs: in one process both run on the same event
/// loops and the same cooperative threads, and no per-thread reading separates them.
///
/// The parent writes the requests to a file (one a line: the Authorization header, a tab, the
/// JSON body) and reads one JSON line back: elapsed time, latency percentiles, acknowledged
/// count and the clients' own CPU time over the timed phase.
enum IngestClients {
    struct Report: Codable {
        let seconds: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        let acknowledged: Int
        let cpuSeconds: Double
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
    static func run(base: String, requestsFile: String, concurrency: Int) async throws {
        let lines = try String(contentsOfFile: requestsFile, encoding: .utf8).split(separator: "\n")
        let requests = lines.map { line -> (String, ByteBuffer) in
            let tab = line.firstIndex(of: "\t")!
            return (String(line[..<tab]), ByteBuffer(string: String(line[line.index(after: tab)...])))
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let http = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: .init(
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)))
        let cpuBefore = IngestBenchmark.processCPUSeconds()
        let started = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { tasks in
            for worker in 0..<concurrency {
                tasks.addTask {
                    var mine: [Double] = []
                    for index in stride(from: worker, to: requests.count, by: concurrency) {
                        let (authorization, body) = requests[index]
                        var request = HTTPClientRequest(url: base + "/api/v1/responses")
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.headers.add(name: "Authorization", value: authorization)
                        request.body = .bytes(body)
                        let sent = ContinuousClock.now
                        let response = try await http.execute(request, timeout: .seconds(30))
                        _ = try await response.body.collect(upTo: 1 << 16)
                        guard response.status == .created else {
                            throw BenchmarkError("unexpected status \(response.status.code)")
                        }
                        mine.append(IngestBenchmark.seconds(ContinuousClock.now - sent))
                    }
                    return mine
                }
            }
            return try await tasks.reduce(into: []) { $0 += $1 }
        }
        let elapsed = IngestBenchmark.seconds(ContinuousClock.now - started)
        let cpu = IngestBenchmark.processCPUSeconds() - cpuBefore
        try await http.shutdown()
        try await group.shutdownGracefully()
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
        let report = Report(seconds: elapsed, p50Milliseconds: percentile(0.5), p99Milliseconds: percentile(0.99),
                            acknowledged: latencies.count, cpuSeconds: cpu)
        FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
    }

    /// Parent side: runs the clients as a child process of this executable and returns their report.
    static func spawn(base: URL, requestsFile: URL, concurrency: Int) async throws -> Report {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["ingest-clients", "--url", base.absoluteString, "--requests-file", requestsFile.path,
                             "--concurrency", String(concurrency)]
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
