import Fluent
import Foundation
@testable import MomentaryServer
import SQLKit
import Synchronization
import Testing

/// The built `momentary` killed with SIGKILL (as a crash or power cut would) while participants
/// upload answers, on SQLite and on PostgreSQL; and, on PostgreSQL, several servers and
/// signalling workers sharing one database while one of each is killed.
@Suite("Crashes lose nothing", .serialized)
struct CrashHarnessTests {
    static let kills = 5
    /// Enough participants uploading at once that the server's writer commits several answers
    /// per transaction (group commit), so the kills land on batched ingest.
    static let uploaders = 16

    @Test("kill -9 during uploads, again and again: every acknowledged answer is stored exactly once")
    func killedServerLosesNothing() async throws {
        let (target, environment) = try MigrationCrashTests.freshTarget()
        #expect(try await ServerProcess(arguments: ["migrate"] + target, environment: environment).waitForExit() == 0)
        var server = try ServerProcess(arguments: ["serve", "--demo", "--port", "0"] + target, environment: environment)
        let servers = ServerList([try await server.listeningURL()])
        let load = try await ResponseLoad.register(Self.uploaders, at: servers.urls[0])
        let uploads = Task { await load.run(servers: { servers.urls }, isDone: { servers.isDone }) }
        var acknowledgedAtKills: [Int] = []
        var batches = WriterBatches()
        for _ in 0..<Self.kills {
            // Each kill lands while answers are flowing: after a few more have been acknowledged
            // by this server, at a random moment.
            let before = load.acknowledged.count
            let deadline = Date().addingTimeInterval(60)
            while load.acknowledged.count < before + 3 && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...400)))
            batches.add(try await WriterBatches.scrape(servers.urls[0]))
            servers.set([])
            await server.kill()
            acknowledgedAtKills.append(load.acknowledged.count)
            server = try ServerProcess(arguments: ["serve", "--port", "0"] + target, environment: environment)
            servers.set([try await server.listeningURL()])
        }
        try await Task.sleep(for: .milliseconds(500))
        servers.finish()
        await uploads.value
        try await load.finish(at: servers.urls[0])
        await server.stop()

        let configuration = try MigrationCrashTests.configuration(target, environment)
        let stored = try await AppFactory.withApp(configuration) { app in try await Self.storedKeys(app.db) }
        let acknowledged = load.acknowledged
        #expect(load.refusals.isEmpty, "\(load.refusals)")
        #expect(zip(acknowledgedAtKills, acknowledgedAtKills.dropFirst()).allSatisfy { $0 < $1 }, "answers were acknowledged between every two kills: \(acknowledgedAtKills)")
        #expect(acknowledged.allSatisfy { stored[$0.key] == 1 }, "every acknowledged answer once: \(acknowledged.count) acknowledged")
        #expect(stored.values.allSatisfy { $0 == 1 }, "no answer twice")
        #expect(Set(stored.keys) == Set(acknowledged.keys), "nothing stored that no one sent")
        #expect(batches.submissions > batches.batches, "the killed servers committed answers in batches: \(batches)")
        print("crash harness (\(TestDatabase.isPostgres ? "PostgreSQL" : "SQLite")): \(Self.kills) kills, \(acknowledged.count) acknowledged, "
              + "\(acknowledged.filter { stored[$0.key] == nil }.count) lost, \(stored.values.filter { $0 > 1 }.count) duplicated, "
              + "\(batches.submissions) answers in \(batches.batches) batches before the kills")
        try await MigrationCrashTests.remove(target, environment)
    }

    @Test("two servers and two signalling workers on one PostgreSQL, one of each killed: answers once, every beep sent and shown once",
          .enabled(if: TestDatabase.isPostgres, "several servers share a database only on PostgreSQL"))
    func severalServersAndWorkers() async throws {
        var (target, environment) = try MigrationCrashTests.freshTarget()
        let outbox = target[1] + "/outbox.jsonl"
        environment["MOMENTARY_PUSH_OUTBOX"] = outbox
        #expect(try await ServerProcess(arguments: ["migrate"] + target, environment: environment).waitForExit() == 0)
        let first = try ServerProcess(arguments: ["serve", "--demo", "--port", "0"] + target, environment: environment)
        let firstURL = try await first.listeningURL()
        let second = try ServerProcess(arguments: ["serve", "--port", "0"] + target, environment: environment)
        let servers = ServerList([firstURL, try await second.listeningURL()])
        // A zone where it is mid-afternoon now, so every beep falls inside the participants' hours.
        let utcHour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        let offset = (15 - utcHour + 36) % 24 - 12
        let zone = offset == 0 ? "Etc/UTC" : "Etc/GMT\(offset > 0 ? "-" : "+")\(abs(offset))"
        let load = try await ResponseLoad.register(6, at: firstURL, timezone: zone)

        // Beeps falling due over the next 12 s, one every 0.4 s, claimed by whichever worker wakes first.
        let configuration = try MigrationCrashTests.configuration(target, environment)
        let start = Date().addingTimeInterval(3)
        let planned = try await AppFactory.withApp(configuration) { app in
            try await Self.planBeeps(for: load.participants.map(\.credentials.participantID), from: start, count: 30, on: app.db)
        }
        let firstWorker = try ServerProcess(arguments: ["signal", "--worker-id", "worker-1"] + target, environment: environment)
        let secondWorker = try ServerProcess(arguments: ["signal", "--worker-id", "worker-2"] + target, environment: environment)
        let uploads = Task { await load.run(servers: { servers.urls }, isDone: { servers.isDone }) }
        try await Task.sleep(until: .now + .seconds(7))
        servers.set([servers.urls[1]])
        await first.kill()
        await firstWorker.kill()
        let acknowledgedAtKill = load.acknowledged.count
        // The killed worker comes back under its id (a supervisor restarting it) and sends again
        // at once whatever the kill caught between claim and record.
        try await Task.sleep(until: .now + .seconds(2))
        let restartedWorker = try ServerProcess(arguments: ["signal", "--worker-id", "worker-1"] + target, environment: environment)
        try await Task.sleep(until: .now + .seconds(8))
        servers.finish()
        await uploads.value
        try await load.finish(at: servers.urls[0])
        await second.stop()
        await secondWorker.stop()
        await restartedWorker.stop()

        let acknowledged = load.acknowledged
        #expect(load.refusals.isEmpty, "\(load.refusals)")
        #expect(acknowledged.count > acknowledgedAtKill && acknowledgedAtKill > 0, "answers went to both servers and on after the kill")
        let sentLines = try String(contentsOfFile: outbox, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(OutboxLine.self, from: Data($0.utf8)).beepID }
        let timesSent = Dictionary(sentLines.map { ($0, 1) }, uniquingKeysWith: +)
        try await AppFactory.withApp(configuration) { app in
            let stored = try await Self.storedKeys(app.db)
            #expect(acknowledged.allSatisfy { stored[$0.key] == 1 }, "every acknowledged answer once")
            #expect(stored.values.allSatisfy { $0 == 1 })
            let due = try await Beep.query(on: app.db).filter(\.$scheduledAt <= Date().addingTimeInterval(-2)).all()
            #expect(Set(planned).isSubset(of: Set(due.compactMap(\.id))))
            for beep in due {
                switch beep.status {
                case .sent, .expired, .answered:
                    #expect(timesSent[try beep.requireID()] ?? 0 >= 1, "a beep recorded sent reached the push channel")
                default:
                    Issue.record("beep \(beep.id!) due at \(beep.scheduledAt) is still \(beep.status.rawValue)")
                }
            }
            // A beep pushed twice is one the kill caught after its push and before its record: the
            // restarted worker sent it again under the same id, which the app's notification tag
            // (the beep id) shows once.
            let twice = timesSent.filter { $0.value > 1 }
            #expect(twice.values.allSatisfy { $0 == 2 }, "at most one push again, after the kill")
            #expect(twice.count <= 4, "only what the killed worker held mid-send: \(twice.count)")
            let delivered = due.filter { [.sent, .expired, .answered].contains($0.status) }.count
            print("several servers: \(acknowledged.count) answers acknowledged (\(acknowledgedAtKill) before the kill), "
                  + "\(due.count) beeps due: \(delivered) recorded sent, \(twice.count) pushed again after the kill")
        }
        try await MigrationCrashTests.remove(target, environment)
    }

    @Test("a server killed between claiming a beep and recording it sends that beep at once when it starts again, under the same id",
          .enabled(if: !TestDatabase.isPostgres, "one server owns an SQLite file, so its worker keeps its id across restarts"))
    func restartedServerSendsWhatItHeld() async throws {
        var (target, environment) = try MigrationCrashTests.freshTarget()
        let outbox = target[1] + "/outbox.jsonl"
        environment["MOMENTARY_PUSH_OUTBOX"] = outbox
        #expect(try await ServerProcess(arguments: ["migrate"] + target, environment: environment).waitForExit() == 0)
        let first = try ServerProcess(arguments: ["serve", "--demo", "--port", "0"] + target, environment: environment)
        // A zone where it is mid-afternoon now, so the beep falls inside the participant's hours.
        let utcHour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        let offset = (15 - utcHour + 36) % 24 - 12
        let zone = offset == 0 ? "Etc/UTC" : "Etc/GMT\(offset > 0 ? "-" : "+")\(abs(offset))"
        let load = try await ResponseLoad.register(1, at: try await first.listeningURL(), timezone: zone)
        await first.kill()

        // What the kill left: a beep the server had claimed (status sending, its worker's id) and not recorded.
        let configuration = try MigrationCrashTests.configuration(target, environment)
        let held = try await AppFactory.withApp(configuration) { app in
            // The killed server's worker, seen working moments ago: another worker would wait 90 s before taking its beeps.
            let worker = try #require(try await app.db.sql.raw(
                "SELECT worker_id FROM signalling_workers ORDER BY seen_at DESC LIMIT 1").first()?.decode(column: "worker_id", as: String.self))
            #expect(worker.hasPrefix("serve@"), "\(worker)")
            let id = try #require(try await Self.planBeeps(
                for: load.participants.map(\.credentials.participantID), from: Date().addingTimeInterval(-5), count: 1, on: app.db).first)
            try await app.db.sql.raw(
                "UPDATE beeps SET status = 'sending', claimed_by = \(bind: worker), claimed_at = \(bind: Date()) WHERE id = \(bind: id)").run()
            return id
        }
        let restarted = try ServerProcess(arguments: ["serve", "--port", "0"] + target, environment: environment)
        _ = try await restarted.listeningURL()
        let deadline = Date().addingTimeInterval(20)
        var sent = false
        while !sent && Date() < deadline {
            try await Task.sleep(for: .milliseconds(200))
            sent = (try? String(contentsOfFile: outbox, encoding: .utf8))?.lowercased().contains(held.uuidString.lowercased()) == true
        }
        await restarted.stop()
        #expect(sent, "the held beep reached the push channel within seconds of the restart, not after the 90 s takeover")
        let status = try await AppFactory.withApp(configuration) { app in try await Beep.find(held, on: app.db)?.status }
        #expect(status == .sent)
        try await MigrationCrashTests.remove(target, environment)
    }

    /// How many responses each idempotency key has (registrations, all keyed "registration", left out).
    static func storedKeys(_ db: any Database) async throws -> [String: Int] {
        let responses = try await SurveyResponse.query(on: db).filter(\.$idempotencyKey != "registration").all()
        return Dictionary(responses.map { ($0.idempotencyKey, 1) }, uniquingKeysWith: +)
    }

    /// Pending beeps `count` in all, one every 0.4 s from `start`, spread over the participants.
    static func planBeeps(for participants: [UUID], from start: Date, count: Int, on db: any Database) async throws -> [UUID] {
        var ids: [UUID] = []
        for index in 0..<count {
            let participantID = participants[index % participants.count]
            let participant = try #require(try await Participant.find(participantID, on: db))
            let beep = Beep()
            beep.$participant.id = participantID
            beep.$study.id = participant.$study.id
            beep.origin = .random
            beep.localDate = "2026-01-01"
            beep.sequence = 1_000 + index
            beep.scheduledAt = start.addingTimeInterval(Double(index) * 0.4)
            beep.status = .pending
            beep.createdAt = Date()
            try await beep.save(on: db)
            ids.append(try beep.requireID())
        }
        return ids
    }

    private struct OutboxLine: Decodable {
        let beepID: UUID
        enum CodingKeys: String, CodingKey { case beepID = "beep_id" }
    }
}

/// The writer's batch counters, read from `/metrics` of servers about to be killed.
private struct WriterBatches: CustomStringConvertible {
    var batches = 0
    var submissions = 0

    mutating func add(_ other: WriterBatches) {
        batches += other.batches
        submissions += other.submissions
    }

    var description: String { "\(submissions) submissions in \(batches) batches" }

    static func scrape(_ server: URL) async throws -> WriterBatches {
        let (status, text) = try await RawHTTP.send(server, "GET", "/metrics", body: nil)
        guard status == 200 else { return WriterBatches() }
        func value(_ name: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix("momentary_\(name) ") }
            return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
        }
        return WriterBatches(batches: value("response_batches_total"), submissions: value("response_batch_submissions_total"))
    }
}

/// The servers the participants may reach now (none while one restarts), and whether to stop.
private final class ServerList: Sendable {
    private let state: Mutex<(urls: [URL], done: Bool)>

    init(_ urls: [URL]) { state = Mutex((urls, false)) }

    var urls: [URL] { state.withLock { $0.urls } }
    var isDone: Bool { state.withLock { $0.done } }
    func set(_ urls: [URL]) { state.withLock { $0.urls = urls } }
    func finish() { state.withLock { $0.done = true } }
}

extension ServerProcess {
    func listeningURL() async throws -> URL {
        URL(string: try await waitForListeningURL())!
    }
}
