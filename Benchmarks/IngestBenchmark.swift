import AsyncHTTPClient
import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
import MomentaryServer
import SQLKit
import NIOCore
import Vapor

/// Authenticated `POST /api/v1/responses` throughput and latency on the embedded SQLite database
/// (or on PostgreSQL with `--postgres URL`, in a schema of its own): the real server on a loopback
/// port, `concurrency` clients each sending its share of valid answer sets (distinct idempotency
/// keys) over keep-alive HTTP/1.1 connections. Afterwards the database is reopened and every
/// acknowledged response counted, so "acknowledged" means "stored".
///
/// Beside the figure, in the same run: the limit, this disk's durable SQLite commits a second
/// with one row and with 20 rows a commit (`DurableCommitLimit`, a scratch file in the same
/// directory), and the ratios. CPU per response is the whole process's CPU time (getrusage)
/// over the timed phase divided by the responses: the server runs in this process, and so do
/// the HTTP clients, so it is an upper bound on the server's own cost.
enum IngestBenchmark {
    static func run(requests: Int, concurrency: Int, participants: Int = 50, postgresURL: String? = nil) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("momentary-ingest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let metricsToken = UUID().uuidString
        let configuration = Configuration(
            dataDirectory: directory,
            database: postgresURL.map { .postgres(url: $0) }
                ?? .sqlite(path: directory.appendingPathComponent(Configuration.sqliteFileName).path),
            environmentName: "production",
            postgresSchema: postgresURL == nil ? nil : "bench_ingest_\(UInt32.random(in: 0...UInt32.max))",
            metricsToken: metricsToken)

        let app = try await Application.make(.production)
        app.logger.logLevel = .error
        try await configure(app, configuration)
        try await app.migrateAtomically()
        try await app.seedDemoStudy()
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = app.http.server.shared.localAddress?.port ?? 0
        let base = URL(string: "http://127.0.0.1:\(port)")!

        let credentials = try await register(participants, at: base)
        let bodies = try makeBodies(requests, credentials: credentials)

        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)))
        let cpuBefore = processCPUSeconds()
        let started = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var mine: [Double] = []
                    for index in stride(from: worker, to: bodies.count, by: concurrency) {
                        let (authorization, body) = bodies[index]
                        var request = HTTPClientRequest(url: base.absoluteString + "/api/v1/responses")
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.headers.add(name: "Authorization", value: authorization)
                        request.body = .bytes(ByteBuffer(data: body))
                        let sent = ContinuousClock.now
                        let response = try await http.execute(request, timeout: .seconds(30))
                        _ = try await response.body.collect(upTo: 1 << 16)
                        guard response.status == .created else {
                            throw BenchmarkError("unexpected status \(response.status.code)")
                        }
                        mine.append(seconds(ContinuousClock.now - sent))
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let elapsed = seconds(ContinuousClock.now - started)
        let cpu = processCPUSeconds() - cpuBefore
        let batches = try await writerBatches(at: base, token: metricsToken, http: http)
        try await http.shutdown()
        await app.server.shutdown()
        try await app.asyncShutdown()

        let stored = try await countStored(configuration)
        let oneRow = try await DurableCommitLimit.measure(in: directory, rowsPerCommit: 1)
        let twentyRows = try await DurableCommitLimit.measure(in: directory, rowsPerCommit: 20)
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
        let perSecond = Double(requests) / elapsed
        print(#"{"benchmark":"ingest","database":"\#(postgresURL == nil ? "sqlite" : "postgresql")","requests":\#(requests),"#
            + #""concurrency":\#(concurrency),"seconds":\#(rounded(elapsed)),"per_second":\#(rounded(perSecond)),"#
            + #""p50_ms":\#(rounded(percentile(0.5))),"p99_ms":\#(rounded(percentile(0.99))),"#
            + #""acknowledged":\#(latencies.count),"stored":\#(stored),"#
            + #""batches":\#(batches.batches),"mean_batch":\#(rounded(Double(batches.submissions) / Double(max(1, batches.batches)))),"#
            + #""process_cpu_ms_per_response":\#(rounded(cpu * 1000 / Double(requests))),"#
            + #""limit_one_row_commits_per_second":\#(rounded(oneRow.commitsPerSecond)),"#
            + #""limit_20_row_commits_per_second":\#(rounded(twentyRows.commitsPerSecond)),"#
            + #""limit_20_row_rows_per_second":\#(rounded(twentyRows.rowsPerSecond)),"#
            + #""ratio_to_one_row_commits":\#(rounded(perSecond / oneRow.commitsPerSecond)),"#
            + #""ratio_to_20_row_commits":\#(rounded(perSecond / twentyRows.commitsPerSecond))}"#)
    }

    /// User and system CPU time of this whole process so far.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    /// The server's own count of the transactions its response writer committed, from `/metrics`.
    private static func writerBatches(at base: URL, token: String, http: HTTPClient) async throws -> (batches: Int, submissions: Int) {
        var request = HTTPClientRequest(url: base.absoluteString + "/metrics")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await http.execute(request, timeout: .seconds(30))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 22))
        func value(_ name: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix("momentary_\(name) ") }
            return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
        }
        return (value("response_batches_total"), value("response_batch_submissions_total"))
    }

    private static func register(_ count: Int, at base: URL) async throws -> [ParticipantCredentials] {
        var result: [ParticipantCredentials] = []
        var generator = Xoshiro256StarStar(seed: 1)
        for _ in 0..<count {
            let request = RegistrationRequest(
                study: "demo", consent: true, timezone: "Europe/London", settings: .standard, push: .none,
                registrationAnswers: SampleSurveys.registration.randomAnswers(using: &generator),
                device: DeviceInfo(model: "bench", os: "bench", appVersion: "1"))
            let registration = try await MomentaryAPIClient(baseURL: base).register(request)
            result.append(ParticipantCredentials(participantID: registration.participantID, secret: registration.secret))
        }
        return result
    }

    /// Request bodies made before the clock starts, so the figure is the server's, not the encoder's.
    private static func makeBodies(_ count: Int, credentials: [ParticipantCredentials]) throws -> [(String, Data)] {
        var generator = Xoshiro256StarStar(seed: 2)
        let encoder = WireCoding.makeEncoder()
        let now = Date()
        return try (0..<count).map { index in
            let submission = ResponseSubmission(
                idempotencyKey: "bench-\(index)", surveyVersion: 1, startedAt: now, submittedAt: now.addingTimeInterval(20),
                answers: SampleSurveys.experienceSampling.randomAnswers(using: &generator),
                context: ResponseContext(
                    location: LocationFix(latitude: 51.5, longitude: -0.12, horizontalAccuracy: 20, timestamp: now),
                    sound: SoundLevel(averageDB: 50, peakDB: 61), battery: 0.7, connection: .wifi, steps: 42, impetus: .button))
            let credential = credentials[index % credentials.count]
            return (credential.authorizationHeader, try encoder.encode(submission))
        }
    }

    /// Reopens the database from scratch and counts the stored answer sets.
    private static func countStored(_ configuration: Configuration) async throws -> Int {
        let app = try await Application.make(.production)
        app.logger.logLevel = .error
        try await configure(app, configuration)
        struct Row: Decodable { let count: Int }
        let sql = app.db as! any SQLDatabase
        let row = try await sql.raw("SELECT COUNT(*) AS count FROM responses WHERE kind = 'esm'").first(decoding: Row.self)
        if let schema = configuration.postgresSchema {
            try await sql.raw("DROP SCHEMA \(ident: schema) CASCADE").run()
        }
        try await app.asyncShutdown()
        return row?.count ?? 0
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, fraction) = duration.components
        return Double(whole) + Double(fraction) / 1e18
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
