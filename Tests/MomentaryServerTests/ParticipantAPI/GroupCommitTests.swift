import Fluent
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import SQLKit
import Testing

/// Submissions that arrive together are stored in one transaction by `GroupCommitWriter`. Each test
/// holds the database's write lock from a connection of its own while uploads arrive, so the
/// writer's first batch waits and the rest pile up behind it: they are then, with certainty,
/// stored together in the next batch.
@Suite("Participant API: answers arriving together are committed together", .serialized)
struct GroupCommitTests {
    typealias Answer = (status: Int, body: String)

    @Test("uploads from many participants at once are all stored, once each, in one batch")
    func concurrentUploads() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let participants = try await Self.participants(6, on: server)
            let writer = server.app.ingestResources.writer
            let statuses = try await Self.holdingWrites(on: server) { lock in
                // The first batch, held up by the lock, takes one upload; the other 23 arrive at
                // once and queue behind it.
                let first = Task { try await Self.post(APIFixture.submission(key: "together-0-0"), as: participants[0], to: server).status }
                try await Self.waitUntil(writer, isStoring: 1)
                let uploads = Task {
                    try await withThrowingTaskGroup(of: (String, Int).self) { group in
                        for (index, participant) in participants.enumerated() {
                            for round in 0..<4 where index > 0 || round > 0 {
                                let key = "together-\(index)-\(round)"
                                group.addTask { (key, try await Self.post(APIFixture.submission(key: key), as: participant, to: server).status) }
                            }
                        }
                        return try await group.reduce(into: [String: Int]()) { $0[$1.0] = $1.1 }
                    }
                }
                try await Self.waitUntil(writer, holds: 24)
                try await lock.release()
                return try await uploads.value.merging(["together-0-0": try await first.value]) { $1 }
            }

            #expect(statuses.count == 24 && statuses.values.allSatisfy { $0 == 201 }, "\(statuses)")
            let stored = try await CrashHarnessTests.storedKeys(server.db)
            #expect(stored == Dictionary(uniqueKeysWithValues: statuses.keys.map { ($0, 1) }), "every upload stored once")
            let statistics = await writer.statistics
            #expect(statistics.responses == 24)
            #expect(statistics.batches == 2, "the batch held up by the lock, then all the others together: \(statistics)")
        }
    }

    @Test("the same idempotency key twice in one batch: one response, and both uploads get its receipt")
    func sameKeyTwiceInOneBatch() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let participants = try await Self.participants(2, on: server)
            let writer = server.app.ingestResources.writer
            let submission = APIFixture.submission(key: "twin")
            let (first, twins) = try await Self.holdingWrites(on: server) { lock in
                // The first batch, held up by the lock, takes this one; the twins queue behind it.
                let first = Task { try await Self.post(APIFixture.submission(key: "first"), as: participants[1], to: server) }
                try await Self.waitUntil(writer, isStoring: 1)
                let twins = (0..<2).map { _ in Task { try await Self.post(submission, as: participants[0], to: server) } }
                try await Self.waitUntil(writer, holds: 3)
                try await lock.release()
                return (try await first.value, [try await twins[0].value, try await twins[1].value])
            }

            #expect(first.status == 201)
            #expect(twins.map(\.status).sorted() == [200, 201], "one stored, one told it was stored already: \(twins)")
            let receipts = try twins.map { try WireCoding.makeDecoder().decode(ResponseReceipt.self, from: Data($0.body.utf8)) }
            #expect(receipts[0] == receipts[1])
            #expect(try await CrashHarnessTests.storedKeys(server.db)["twin"] == 1)
            #expect(await writer.statistics.batches == 2, "the twins were in one batch")
        }
    }

    @Test("two answers to one beep in one batch: one is stored, the other refused with 409; an answer naming no beep is volunteered")
    func oneBeepTwiceInOneBatch() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let participants = try await Self.participants(3, on: server)
            let writer = server.app.ingestResources.writer
            let named = try await APIFixture.deliveredBeep(for: participants[0].participantID, minutesAgo: 5, on: server.db)
            let namedID = try named.requireID()
            let awaiting = try await APIFixture.deliveredBeep(for: participants[1].participantID, minutesAgo: 5, on: server.db)
            let (first, answers) = try await Self.holdingWrites(on: server) { lock in
                let first = Task { try await Self.post(APIFixture.submission(key: "first"), as: participants[2], to: server) }
                try await Self.waitUntil(writer, isStoring: 1)
                var uploads: [Task<Answer, any Error>] = []
                for key in ["named-a", "named-b"] {
                    uploads.append(Task { try await Self.post(APIFixture.submission(key: key, beepID: namedID), as: participants[0], to: server) })
                }
                // Two answers naming no beep while one awaits an answer: the first takes it, the second is volunteered.
                for key in ["awaiting-a", "awaiting-b"] {
                    uploads.append(Task { try await Self.post(APIFixture.submission(key: key), as: participants[1], to: server) })
                }
                try await Self.waitUntil(writer, holds: 5)
                try await lock.release()
                var answers: [Answer] = []
                for upload in uploads { answers.append(try await upload.value) }
                return (try await first.value, answers)
            }

            #expect(first.status == 201)
            #expect(answers[0...1].map(\.status).sorted() == [201, 409], "\(answers)")
            #expect(answers[0...1].contains { $0.body.contains(#""code":"beep_answered""#) })
            #expect(answers[2...3].allSatisfy { $0.status == 201 }, "\(answers)")
            let receipts = try answers[2...3].map { try WireCoding.makeDecoder().decode(ResponseReceipt.self, from: Data($0.body.utf8)) }
            #expect(Set(receipts.map(\.volunteered)) == [false, true], "one answered the beep, one was volunteered")
            for beep in [named, awaiting] {
                let responses = try await SurveyResponse.query(on: server.db).filter(\.$beep.$id == beep.requireID()).count()
                #expect(responses == 1, "exactly one response to each beep")
                let stored = try await Beep.find(beep.id, on: server.db)
                #expect(stored?.status == .answered)
                #expect(stored?.answeredAt != nil, "both beeps, taken by one statement, have their time of answer")
            }
            #expect(await writer.statistics.batches == 2)
        }
    }

    @Test("a submission the database refuses fails alone (an erased participant's with 401): the others in its batch are stored")
    func oneBadSubmissionFailsAlone() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let participants = try await Self.participants(4, on: server)
            let writer = server.app.ingestResources.writer
            let gone = participants[3].participantID
            let (first, statuses) = try await Self.holdingWrites(on: server) { lock in
                let first = Task { try await Self.post(APIFixture.submission(key: "first"), as: participants[0], to: server) }
                try await Self.waitUntil(writer, isStoring: 1)
                let uploads = participants.map { participant in
                    Task { try await Self.post(APIFixture.submission(key: "batch-\(participant.participantID)"), as: participant, to: server) }
                }
                try await Self.waitUntil(writer, holds: 5)
                // The participant is erased while the upload waits for the writer: its insert breaks a foreign key.
                try await lock.release { sql in
                    try await sql.raw("DELETE FROM participants WHERE id = \(bind: gone)").run()
                }
                var statuses: [UUID: Int] = [:]
                for (participant, upload) in zip(participants, uploads) { statuses[participant.participantID] = try await upload.value.status }
                return (try await first.value, statuses)
            }

            #expect(first.status == 201)
            #expect(statuses[gone] == 401, "the erased participant's upload is refused as their credentials now are: \(statuses)")
            #expect(participants.dropLast().allSatisfy { statuses[$0.participantID] == 201 }, "\(statuses)")
            let stored = try await CrashHarnessTests.storedKeys(server.db)
            #expect(Set(stored.keys) == Set(["first"] + participants.dropLast().map { "batch-\($0.participantID)" }))
            #expect(await writer.statistics.batches == 2)
        }
    }

    @Test("closing stores every queued upload before it stops; uploads after that get 503")
    func shutdownStoresQueuedUploads() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let participants = try await Self.participants(4, on: server)
            let writer = server.app.ingestResources.writer
            let (late, queued) = try await Self.holdingWrites(on: server) { lock in
                let uploads = participants.map { participant in
                    Task { try await Self.post(APIFixture.submission(key: "queued-\(participant.participantID)"), as: participant, to: server) }
                }
                try await Self.waitUntil(writer, holds: 4)
                let closing = Task { await writer.close() }
                while await writer.isOpen { try await Task.sleep(for: .milliseconds(5)) }
                let late = try await Self.post(APIFixture.submission(key: "late"), as: participants[0], to: server)
                try await lock.release()
                await closing.value
                var queued: [Int] = []
                for upload in uploads { queued.append(try await upload.value.status) }
                return (late, queued)
            }

            #expect(late.status == 503 && late.body.contains(#""code":"service_unavailable""#), "\(late)")
            #expect(queued == [201, 201, 201, 201])
            let stored = try await CrashHarnessTests.storedKeys(server.db)
            #expect(Set(stored.keys) == Set(participants.map { "queued-\($0.participantID)" }), "everything queued was stored, nothing late")
        }
    }

    @Test("a request marks its participant as seen with the writer's batch: while a batch waits, status still answers, and an upload's 2xx finds the participant seen")
    func lastSeenGoesWithTheBatch() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server, APIFixture.registration(seed: 1))
            let participant = ParticipantCredentials(participantID: registration.participantID, secret: registration.secret)
            #expect(try await Self.lastSeen(participant, on: server) == nil)
            let upload = try await Self.holdingWrites(on: server) { lock in
                // Marking the participant seen needs the write lock too, yet the request does not wait for it.
                _ = try await client.status()
                if server.db.sql.dialect.name == "sqlite" {
                    // (PostgreSQL's stand-in lock covers `responses` only, so there it may be written already.)
                    #expect(try await Self.lastSeen(participant, on: server) == nil, "not written while the lock is held")
                }
                let upload = Task { try await Self.post(APIFixture.submission(key: "seen"), as: participant, to: server) }
                try await Self.waitUntil(server.app.ingestResources.writer, holds: 1)
                try await lock.release()
                return try await upload.value
            }
            #expect(upload.status == 201)
            #expect(try await Self.lastSeen(participant, on: server) != nil, "written with the upload's batch or before it")
        }
    }

    @Test("on PostgreSQL the writer opens its connection again after the server closed it, and loses nothing",
          .enabled(if: TestDatabase.isPostgres, "the writer's PostgreSQL connection"))
    func writerReconnects() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let participant = try #require(try await Self.participants(1, on: server).first)
            #expect(try await Self.post(APIFixture.submission(key: "before"), as: participant, to: server).status == 201)
            let name = WriterThread.postgresApplicationName(schema: server.configuration.postgresSchema)
            struct Terminated: Decodable { let terminated: Bool }
            let terminated = try await server.db.sql.raw("""
                SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = \(bind: name)
                """).all(decoding: Terminated.self)
            #expect(terminated.map(\.terminated) == [true], "the writer had one connection, and it was closed")
            #expect(try await Self.post(APIFixture.submission(key: "after"), as: participant, to: server).status == 201)
            #expect(try await CrashHarnessTests.storedKeys(server.db) == ["before": 1, "after": 1])
            #expect(await server.app.ingestResources.writer.statistics.responses == 2)
        }
    }

    // MARK: - Helpers

    /// Registered participants who have each made one request, and whose `last_seen_at` that
    /// request has written (in a batch of the writer's own), so no such batch is still to come
    /// when a test counts batches.
    static func participants(_ count: Int, on server: RunningServer) async throws -> [ParticipantCredentials] {
        var result: [ParticipantCredentials] = []
        for seed in 1...count {
            let (client, registration) = try await APIFixture.register(on: server, APIFixture.registration(seed: UInt64(seed)))
            _ = try await client.status()
            result.append(ParticipantCredentials(participantID: registration.participantID, secret: registration.secret))
        }
        let deadline = Date().addingTimeInterval(60)
        for participant in result {
            while try await lastSeen(participant, on: server) == nil {
                guard Date() < deadline else { throw FixtureError("the participant's last_seen_at was never written") }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        return result
    }

    static func lastSeen(_ participant: ParticipantCredentials, on server: RunningServer) async throws -> Date? {
        try await Participant.find(participant.participantID, on: server.db)?.lastSeenAt
    }

    /// Runs `body` while a connection of its own holds the write lock; releases it if `body` fails,
    /// so the writer is never left waiting when the app shuts down.
    static func holdingWrites<T: Sendable>(on server: RunningServer, _ body: (WriteLock) async throws -> T) async throws -> T {
        let lock = try await WriteLock.take(on: server.app.db(.background))
        do {
            return try await body(lock)
        } catch {
            try? await lock.release()
            throw error
        }
    }

    /// A session that opens as many connections as there are uploads (URLSession.shared opens six
    /// to a host and would hold the rest back, out of the writer's reach).
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()

    static func post(_ submission: ResponseSubmission, as participant: ParticipantCredentials, to server: RunningServer) async throws -> Answer {
        try await RawHTTP.post(
            server.baseURL, "/api/v1/responses", json: try WireCoding.makeEncoder().encode(submission),
            headers: RawHTTP.basic(participant.participantID, participant.secret), session: session)
    }

    /// Waits until the writer's batch being stored (held up by the lock) has `count` uploads, so
    /// that uploads sent afterwards queue for the next batch, however the threads are scheduled.
    static func waitUntil(_ writer: GroupCommitWriter, isStoring count: Int) async throws {
        try await eventually("the writer's batch holds \(count) uploads") { await writer.inBatch == count }
    }

    static func waitUntil(_ writer: GroupCommitWriter, holds count: Int) async throws {
        try await eventually("the writer holds \(count) uploads") { await writer.unanswered >= count }
    }
}

/// The database's write lock held on a connection of its own until `release()`: SQLite's lock
/// itself (`BEGIN IMMEDIATE`), or on PostgreSQL a lock on `responses` that stops its inserts.
final class WriteLock: Sendable {
    private let released: AsyncStream<(@Sendable (any SQLDatabase) async throws -> Void)>.Continuation
    private let holder: Task<Void, any Error>

    private init(released: AsyncStream<(@Sendable (any SQLDatabase) async throws -> Void)>.Continuation, holder: Task<Void, any Error>) {
        self.released = released
        self.holder = holder
    }

    static func take(on db: any Database) async throws -> WriteLock {
        let (locked, lockedContinuation) = AsyncStream<Void>.makeStream()
        let (release, released) = AsyncStream<(@Sendable (any SQLDatabase) async throws -> Void)>.makeStream()
        let holder = Task {
            defer { lockedContinuation.finish() }
            try await db.withConnection { connection in
                let sql = connection.sql
                if sql.dialect.name == "sqlite" {
                    try await sql.raw("BEGIN IMMEDIATE").run()
                } else {
                    try await sql.raw("BEGIN").run()
                    try await sql.raw("LOCK TABLE responses IN SHARE ROW EXCLUSIVE MODE").run()
                }
                lockedContinuation.yield()
                var last: (@Sendable (any SQLDatabase) async throws -> Void)?
                for await work in release { last = work; break }
                try await last?(sql)
                try await sql.raw("COMMIT").run()
            }
        }
        for await _ in locked { break }
        return WriteLock(released: released, holder: holder)
    }

    /// Runs `work` inside the locked transaction, commits, and so lets the writer go on.
    func release(after work: @escaping @Sendable (any SQLDatabase) async throws -> Void = { _ in }) async throws {
        released.yield(work)
        released.finish()
        try await holder.value
    }
}
