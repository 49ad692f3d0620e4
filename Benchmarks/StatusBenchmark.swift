import Foundation
import MomentaryClient
import SQLKit

/// `GET /api/v1/status` (the app's home screen) for a participant with thousands of responses,
/// beside `GET /healthz` on the same server in the same run: the status counts the participant's
/// responses and beeps and finds the median delay in SQL, so it should cost the same however many
/// answers there are, and `/healthz` (no authentication, no database) is the most a request can
/// take. The server is the ingest benchmark's (`BenchServer`); one participant's `responses`
/// answer sets, each answering a beep of theirs, are uploaded first through the API, then
/// `concurrency` keep-alive clients (`IngestClients`, a child process) send `requests` status
/// reads, then as many `/healthz` requests. Prints the two rates, their latencies and ratio,
/// and the server's CPU a request for each.
enum StatusBenchmark {
    static func run(responses: Int, requests: Int, concurrency: Int, postgresURL: String?) async throws {
        let server = try await BenchServer.start("status", postgresURL: postgresURL)
        defer { try? FileManager.default.removeItem(at: server.directory) }
        let participant = try await IngestBenchmark.register(1, at: server.base)
        let beeps = try await IngestBenchmark.sentBeeps(responses, credentials: participant, on: server.sql)
        let uploads = try IngestBenchmark.makeBodies(responses, credentials: participant, beeps: beeps)
        let uploadsFile = server.directory.appendingPathComponent("uploads.txt")
        try IngestClients.writeRequests(uploads, to: uploadsFile)
        let uploaded = try await IngestClients.spawn(base: server.base, requestsFile: uploadsFile, concurrency: concurrency)
        if postgresURL != nil {
            // The tables as a server has them once autovacuum has seen the answers arrive: with
            // statistics, and pages marked all-visible, so an index-only scan reads no table row.
            try await server.sql.raw("VACUUM ANALYZE").run()
        }

        let readsFile = server.directory.appendingPathComponent("reads.txt")
        try IngestClients.writeRequests(Array(repeating: (participant[0].authorizationHeader, Data()), count: requests), to: readsFile)
        let status = try await timed(IngestClients.Target(method: .GET, path: "/api/v1/status", status: .ok), server, readsFile, concurrency)
        let health = try await timed(IngestClients.Target(method: .GET, path: "/healthz", status: .ok), server, readsFile, concurrency)
        try await server.stop()
        let stored = try await IngestBenchmark.countStored(server.configuration)

        let rounded = IngestBenchmark.rounded
        func figures(_ prefix: String, _ run: (report: IngestClients.Report, serverCPU: Double)) -> [(String, String)] {
            [("\(prefix)_per_second", "\(rounded(Double(requests) / run.report.seconds))"),
             ("\(prefix)_p50_ms", "\(rounded(run.report.p50Milliseconds))"), ("\(prefix)_p99_ms", "\(rounded(run.report.p99Milliseconds))"),
             ("\(prefix)_server_cpu_ms_per_request", "\(rounded(run.serverCPU * 1000 / Double(requests)))")]
        }
        let fields: [(String, String)] = [
            ("benchmark", #""status""#), ("database", postgresURL == nil ? #""sqlite""# : #""postgresql""#),
            ("responses", "\(responses)"), ("uploaded", "\(uploaded.acknowledged)"), ("stored", "\(stored)"),
            ("requests", "\(requests)"), ("concurrency", "\(concurrency)"),
        ] + figures("status", status) + figures("limit_healthz", health) + [
            ("ratio_to_healthz", "\(rounded(health.report.seconds / status.report.seconds))"),
        ]
        printResult(fields)
    }

    /// The clients' report for `target`, with the server's CPU seconds (this process's) meanwhile.
    private static func timed(
        _ target: IngestClients.Target, _ server: BenchServer, _ requestsFile: URL, _ concurrency: Int
    ) async throws -> (report: IngestClients.Report, serverCPU: Double) {
        let before = processCPUSeconds()
        let report = try await IngestClients.spawn(base: server.base, requestsFile: requestsFile, concurrency: concurrency, target: target)
        return (report, processCPUSeconds() - before)
    }
}
