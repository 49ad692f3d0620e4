import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import SQLKit

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
        let cpuBefore = processCPUSeconds()
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
        let cpu = processCPUSeconds() - cpuBefore
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
