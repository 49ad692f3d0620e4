import AsyncHTTPClient
import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
import MomentaryServer
import NIOCore
import SQLKit
import Vapor

/// Authenticated `POST /api/v1/responses` throughput and latency on the embedded SQLite database
/// (or on PostgreSQL with `--postgres URL`, in a schema of its own): the real server on a loopback
/// port, `concurrency` clients each sending its share of valid answer sets (distinct idempotency
/// keys) over keep-alive HTTP/1.1 connections. Afterwards the database is reopened and every
/// acknowledged response counted, so "acknowledged" means "stored".
///
/// Request `i` is the participant `i % participants`'s, sent by client `i % concurrency`. With as
/// many participants as clients (the default) each client is one participant's phone, uploading
/// its answers one after another, as a participant does in service; with fewer, some
/// participants upload from two clients at once.
///
/// Beside the figure, in the same run: the limit, this disk's durable SQLite commits a second
/// with one row and with 20 rows a commit (`DurableCommitLimit`, a scratch file in the same
/// directory), and the ratios. The clients run in a child process (`IngestClients`), so CPU time
/// is reported apart: the server's (this process's getrusage while the clients run), the
/// clients' (theirs over their timed phase), on PostgreSQL the database server's (its processes'
/// CPU time from /proc, when it runs on this machine), and the total, what the cores share.
enum IngestBenchmark {
    static func run(requests: Int, concurrency: Int, participants: Int, postgresURL: String? = nil, namedBeeps: Bool = false) async throws {
        let server = try await BenchServer.start("ingest", postgresURL: postgresURL)
        defer { try? FileManager.default.removeItem(at: server.directory) }
        let (base, directory) = (server.base, server.directory)

        let credentials = try await register(participants, at: base)
        let beeps = namedBeeps ? try await sentBeeps(requests, credentials: credentials, on: server.sql) : nil
        if postgresURL != nil {
            // The seeded tables' statistics as a server has them a minute after such data arrived
            // (autovacuum analyzes a table once a tenth of it changed), not those of tables made a
            // moment ago. The empty tables the run fills are left unanalyzed, as autovacuum leaves
            // them: statistics saying "empty" would plan their foreign-key checks as scans.
            try await server.sql.raw("ANALYZE beeps, participants").run()
            // Nor may autovacuum analyze `responses` while the run fills it. When it did, a few
            // hundred rows in (now and then), the answers' foreign-key checks were planned as
            // scans of a table that then grew to 10,000 rows, and the run was many times slower
            // (figures: BENCHMARKS.md, `momentary-bench ingest`). A server whose tables have grown
            // plans them as index lookups, whenever its tables are analyzed.
            try await server.sql.raw("ALTER TABLE responses SET (autovacuum_enabled = false)").run()
        }
        let bodies = try makeBodies(requests, credentials: credentials, beeps: beeps)

        let requestsFile = directory.appendingPathComponent("requests.txt")
        try IngestClients.writeRequests(bodies, to: requestsFile)
        // The clients run in a child process, so this process's CPU time is the server's alone.
        // On PostgreSQL the database's own processes work for the server too; SQLite works inside it.
        let postgres = postgresURL == nil ? nil : try await PostgresServerCPU.find(on: server.sql)
        let databaseCPUBefore = postgres?.seconds()
        let serverCPUBefore = processCPUSeconds()
        let clients = try await IngestClients.spawn(base: base, requestsFile: requestsFile, concurrency: concurrency)
        let serverCPU = processCPUSeconds() - serverCPUBefore
        let databaseCPU = databaseCPUBefore.flatMap { before in postgres.map { $0.seconds() - before } }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let batches = try await writerBatches(at: base, token: server.metricsToken, http: http)
        try await http.shutdown()
        try await server.stop()

        let stored = try await countStored(server.configuration)
        let oneRow = try await DurableCommitLimit.measure(in: directory, rowsPerCommit: 1)
        let twentyRows = try await DurableCommitLimit.measure(in: directory, rowsPerCommit: 20)
        let perSecond = Double(requests) / clients.seconds
        func perResponse(_ cpu: Double) -> Double { rounded(cpu * 1000 / Double(requests)) }
        let fields: [(String, String)] = [
            ("benchmark", #""ingest""#), ("database", postgresURL == nil ? #""sqlite""# : #""postgresql""#),
            ("requests", "\(requests)"), ("concurrency", "\(concurrency)"), ("participants", "\(participants)"),
            ("named_beeps", "\(namedBeeps)"),
            ("seconds", "\(rounded(clients.seconds))"), ("per_second", "\(rounded(perSecond))"),
            ("p50_ms", "\(rounded(clients.p50Milliseconds))"), ("p99_ms", "\(rounded(clients.p99Milliseconds))"),
            ("acknowledged", "\(clients.acknowledged)"), ("stored", "\(stored)"),
            ("batches", "\(batches.batches)"),
            ("mean_batch", "\(rounded(Double(batches.submissions) / Double(max(1, batches.batches))))"),
            ("server_cpu_ms_per_response", "\(perResponse(serverCPU))"),
            ("client_cpu_ms_per_response", "\(perResponse(clients.cpuSeconds))"),
            ("postgres_cpu_ms_per_response", databaseCPU.map { "\(perResponse($0))" } ?? "null"),
            ("total_cpu_ms_per_response", "\(perResponse(serverCPU + clients.cpuSeconds + (databaseCPU ?? 0)))"),
            ("limit_one_row_commits_per_second", "\(rounded(oneRow.commitsPerSecond))"),
            ("limit_20_row_commits_per_second", "\(rounded(twentyRows.commitsPerSecond))"),
            ("limit_20_row_rows_per_second", "\(rounded(twentyRows.rowsPerSecond))"),
            ("ratio_to_one_row_commits", "\(rounded(perSecond / oneRow.commitsPerSecond))"),
            ("ratio_to_20_row_commits", "\(rounded(perSecond / twentyRows.commitsPerSecond))"),
        ]
        printResult(fields)
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

    static func register(_ count: Int, at base: URL) async throws -> [ParticipantCredentials] {
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

    /// With `--named-beeps`: one delivered beep for each request, of the participant who sends it,
    /// as when every answer replies to a beep the app names (what apps answering beeps send). In
    /// service a participant has one beep awaiting an answer at a time (sending the next expires
    /// it), so the beep an upload names is the one the authenticator reads beside the
    /// credentials. Here a participant uploading from two clients at once names a beep behind its
    /// latest, which the server reads apart: a second read service does not make.
    static func sentBeeps(_ count: Int, credentials: [ParticipantCredentials], on sql: any SQLDatabase) async throws -> [UUID] {
        struct Row: Decodable { let study_id: UUID }
        guard let study = try await sql.raw("SELECT study_id FROM participants LIMIT 1").first(decoding: Row.self)?.study_id else {
            throw BenchmarkError("no participants to send beeps to")
        }
        let sentAt = Date().addingTimeInterval(-60)
        // Ids as the planner makes them (time-ordered), so the beeps' index pages are as in service.
        var uuids = TimeOrderedUUIDs(at: sentAt)
        let ids = (0..<count).map { _ in uuids.next() }
        for start in stride(from: 0, to: count, by: 500) {
            let insert = sql.insert(into: "beeps").columns(
                "id", "participant_id", "study_id", "origin", "local_date", "sequence", "scheduled_at", "status", "sent_at", "created_at")
            for index in start..<min(count, start + 500) {
                let id = ids[index]
                // Earlier requests' beeps were sent later, so the beep a participant's next request
                // answers is its latest delivered one, as when an app answers the beep just sent.
                let at = sentAt.addingTimeInterval(-Double(index) / 1000)
                insert.values(
                    SQLBind(id), SQLBind(credentials[index % credentials.count].participantID), SQLBind(study), SQLBind("random"),
                    SQLBind("2026-01-01"), SQLBind(index), SQLBind(at), SQLBind("sent"), SQLBind(at), SQLBind(at))
            }
            try await insert.run()
        }
        return ids
    }

    /// Request bodies made before the clients start, so the figure is the server's, not the encoder's.
    static func makeBodies(
        _ count: Int, credentials: [ParticipantCredentials], beeps: [UUID]?
    ) throws -> [(authorization: String, body: Data)] {
        var generator = Xoshiro256StarStar(seed: 2)
        let encoder = WireCoding.makeEncoder()
        let now = Date()
        return try (0..<count).map { index in
            let submission = ResponseSubmission(
                idempotencyKey: "bench-\(index)", beepID: beeps?[index], surveyVersion: 1, startedAt: now, submittedAt: now.addingTimeInterval(20),
                answers: SampleSurveys.experienceSampling.randomAnswers(using: &generator),
                context: ResponseContext(
                    location: LocationFix(latitude: 51.5, longitude: -0.12, horizontalAccuracy: 20, timestamp: now),
                    sound: SoundLevel(averageDB: 50, peakDB: 61), battery: 0.7, connection: .wifi, steps: 42, impetus: .button))
            let credential = credentials[index % credentials.count]
            return (credential.authorizationHeader, try encoder.encode(submission))
        }
    }

    /// Reopens the database from scratch and counts the stored answer sets; on PostgreSQL then
    /// drops the run's schema.
    static func countStored(_ configuration: Configuration) async throws -> Int {
        let app = try await Application.make(.production)
        app.logger.logLevel = .error
        try await configure(app, configuration)
        struct Row: Decodable { let count: Int }
        let sql = app.db.sql
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
