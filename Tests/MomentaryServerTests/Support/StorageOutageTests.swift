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

/// A full disk and an unreachable database are the server's trouble, not the request's: every
/// write answers 503 `service_unavailable` with Retry-After (a client keeps its data and sends it
/// again), never 500, stores nothing, and works again once the trouble has passed.
@Suite("Storage outages", .serialized)
struct StorageOutageTests {
    typealias Answer = (status: Int, body: String, retryAfter: String?)

    @Test("on a full disk, registration, answers, photos and streams get 503 with Retry-After, /healthz says the disk is low; once space is back all succeed")
    func fullDisk() async throws {
        let disk = try SmallDisk(megabytes: 32)
        defer { disk.remove() }
        try await withRunningServer(adjusting: { configuration in
            configuration.dataDirectory = disk.directory
            configuration.database = .sqlite(path: disk.directory.appendingPathComponent(Configuration.sqliteFileName).path)
            configuration.postgresSchema = nil
            configuration.minimumFreeDiskMegabytes = 1
        }) { server in
            try await APIFixture.seedDemo(on: server.db)
            let participant = try await Self.register(on: server, seed: 1)
            let stored = try await Self.answer(as: participant, key: "before", on: server)
            #expect(stored.status == 201, "\(stored)")
            let responseID = try WireCoding.makeDecoder().decode(ResponseReceipt.self, from: Data(stored.body.utf8)).responseID
            #expect(try await Self.health(server).status == 200)

            // The write-ahead log is emptied first, so the next write needs new space, as it does
            // on a disk that filled up while the server ran.
            try await server.db.sql.raw("PRAGMA wal_checkpoint(TRUNCATE)").run()
            try disk.fill()

            let health = try await Self.health(server)
            #expect(health.status == 503 && health.body.contains(#""disk":"low""#), "\(health)")
            let photo = TestJPEG.make([1, 2, 3])
            let refused: [(String, Answer)] = [
                ("registration", try await Self.registration(on: server, seed: 2)),
                ("answer", try await Self.answer(as: participant, key: "during", on: server)),
                ("photo", try await Self.photo(photo, for: responseID, as: participant, on: server)),
                ("stream", try await Self.stream(as: participant, on: server)),
            ]
            for (what, answer) in refused {
                #expect(answer.status == 503, "\(what): \(answer)")
                #expect(answer.body.contains(#""code":"service_unavailable""#), "\(what): \(answer.body)")
                #expect(answer.retryAfter.flatMap(Int.init).map { $0 > 0 } == true, "\(what) says when to try again")
            }
            let status = try await Self.send("GET", "/api/v1/status", body: nil, headers: participant, on: server)
            #expect([200, 503].contains(status.status), "reading status either works or is a 503: \(status)")

            disk.free()
            let healthAgain = try await Self.health(server)
            #expect(healthAgain.status == 200, "\(healthAgain)")
            #expect(try await Self.registration(on: server, seed: 2).status == 201)
            #expect(try await Self.answer(as: participant, key: "during", on: server).status == 201)
            #expect(try await Self.photo(photo, for: responseID, as: participant, on: server).status == 201)
            #expect(try await Self.stream(as: participant, on: server).status == 201)
            #expect(try await Participant.query(on: server.db).count() == 2, "the refused registration made no participant")
            #expect(try await Blob.query(on: server.db).count() == 2, "one photo and one batch, each once")
        }
    }

    @Test("with the database unreachable, writes answer 503 with Retry-After and /healthz 503")
    func databaseUnreachable() async throws {
        // A port nothing listens on: every connection is refused, as when PostgreSQL is stopped.
        try await withRunningServer(migrateFirst: false, adjusting: { configuration in
            configuration.database = .postgres(url: "postgres://momentary:secret@127.0.0.1:9/momentary")
            configuration.postgresSchema = nil
        }) { server in
            let someone = RawHTTP.basic(UUID(), "not-a-real-secret-but-long-enough")
            let answers: [(String, Answer)] = [
                ("registration", try await Self.registration(on: server, seed: 3)),
                ("answer", try await Self.answer(as: someone, key: "k", on: server)),
                ("status", try await Self.send("GET", "/api/v1/status", body: nil, headers: someone, on: server)),
            ]
            for (what, answer) in answers {
                #expect(answer.status == 503, "\(what): \(answer)")
                #expect(answer.body.contains(#""code":"service_unavailable""#), "\(what): \(answer.body)")
                #expect(answer.retryAfter != nil, "\(what)")
            }
            let health = try await Self.health(server)
            #expect(health.status == 503 && health.body.contains(#""database":"unreachable""#), "\(health)")
        }
    }

    // MARK: - Requests

    static func register(on server: RunningServer, seed: UInt64) async throws -> [String: String] {
        let (_, registered) = try await APIFixture.register(on: server, APIFixture.registration(seed: seed))
        return RawHTTP.basic(registered.participantID, registered.secret)
    }

    static func registration(on server: RunningServer, seed: UInt64) async throws -> Answer {
        let answer = try await APIFixture.postRegistration(to: server, seed: seed, headers: ["Idempotency-Key": "registration-\(seed)"])
        return (answer.status, String(decoding: answer.body, as: UTF8.self), answer.headers["retry-after"])
    }

    static func answer(as participant: [String: String], key: String, on server: RunningServer) async throws -> Answer {
        let body = try WireCoding.makeEncoder().encode(APIFixture.submission(key: key))
        return try await send("POST", "/api/v1/responses", body: body, headers: participant, on: server)
    }

    static func photo(_ jpeg: Data, for response: UUID, as participant: [String: String], on server: RunningServer) async throws -> Answer {
        try await send("POST", "/api/v1/responses/\(response.uuidString.lowercased())/photo", body: jpeg,
                       headers: participant.merging(["Content-Type": "image/jpeg"]) { $1 }, on: server)
    }

    static func stream(as participant: [String: String], on server: RunningServer) async throws -> Answer {
        let csv = Data("timestamp,event,level\n1774771200000,Charging,40\n".utf8)
        return try await send("POST", "/api/v1/uploads/power_state", body: try Gzip.compress(csv), headers: participant.merging([
            "Content-Type": "text/csv", "Content-Encoding": "gzip", "Idempotency-Key": "batch-1",
        ]) { $1 }, on: server)
    }

    static func health(_ server: RunningServer) async throws -> Answer {
        try await send("GET", "/healthz", body: nil, headers: [:], on: server)
    }

    static func send(_ method: String, _ path: String, body: Data?, headers: [String: String], on server: RunningServer) async throws -> Answer {
        let json: [String: String] = body == nil ? [:] : ["Content-Type": "application/json"]
        let answer = try await RawHTTP.fetch(
            server.baseURL, path, method: method, body: body, headers: json.merging(headers) { $1 }, timeout: 120)
        return (answer.status, String(decoding: answer.body, as: UTF8.self), answer.headers["retry-after"])
    }
}

/// A file system of its own (tmpfs) that a test can fill to the last byte and free again.
struct SmallDisk {
    let directory: URL
    private var filler: URL { directory.appendingPathComponent("filler") }

    init(megabytes: Int) throws {
        directory = try TestScratch.folder("small-disk")
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory.path])
    }

    /// Writes until the file system refuses another byte.
    func fill() throws {
        FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        var chunk = Data(count: 1 << 16)
        while chunk.count > 0 {
            do { try handle.write(contentsOf: chunk) } catch { chunk = Data(count: chunk.count / 2) }
        }
    }

    func free() {
        try? FileManager.default.removeItem(at: filler)
    }

    func remove() {
        try? Self.run("/bin/umount", [directory.path])
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        guard try ChildProcess(tool, arguments).waitForExit() == 0 else {
            throw FixtureError("\(tool) \(arguments.joined(separator: " ")) failed (the suite runs as root, as CI does)")
        }
    }
}
