import Foundation
import MomentaryClient
import MomentaryCore
import Testing

@Suite("Upload queue: order and persistence")
struct UploadQueueOrderTests {
    let beepA = UUID(uuidString: "AAAAAAAA-0000-0000-0000-000000000001")!
    let beepB = UUID(uuidString: "BBBBBBBB-0000-0000-0000-000000000002")!

    /// Items in a deliberately scrambled order, and the order the server must see them in.
    func scrambledItems() -> (items: [UploadItem], expected: [String]) {
        let items: [UploadItem] = [
            .streamBatch(Fixture.streamBatch(key: "s1")), .ignoredBeep(beepID: beepA), .photo(Fixture.photo(for: "k1", byte: 1)),
            .response(Fixture.response(key: "k1")),
            .withdraw(WithdrawRequest()), .response(Fixture.response(key: "k2")),
            .settings(SignallingSettings(beepsPerDay: 3, start: TimeOfDay("09:00")!, end: TimeOfDay("21:00")!)),
            .photo(Fixture.photo(for: "k2", byte: 2)), .pushToken(Fixture.push), .ignoredBeep(beepID: beepB),
        ]
        let expected = ["push:apns", "settings:3", "response:k1", "response:k2", "photo:k1:1", "photo:k2:2",
                        "ignored:\(beepA)", "ignored:\(beepB)", "stream:reachability:s1", "withdraw"]
        return (items, expected)
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("items go out by endpoint priority, first in first out within an endpoint")
    func priorityThenFIFO() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = FakeUploadServer()
        let clock = TestClock()
        let queue = try UploadQueue(directory: directory.url, sender: { try await server.receive($0) },
                                    clock: clock.uploadClock)
        let (items, expected) = scrambledItems()
        for item in items { try await queue.enqueue(item) }

        let kinds = await queue.pending().map(\.kind)
        #expect(kinds == [.pushToken, .settings, .response, .response, .photo, .photo, .ignoredBeep, .ignoredBeep, .streamBatch, .withdraw])

        let report = await queue.drain()
        #expect(report.outcome == .idle)
        #expect(report.delivered.count == items.count)
        #expect(report.remaining == 0)
        #expect(report.nextAttemptAt == nil)
        #expect(await server.effects == expected)
        #expect(await queue.pending().isEmpty)
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("a crash mid-upload loses nothing and duplicates nothing after a restart")
    func survivesCrashMidUpload() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = FakeUploadServer()
        let clock = TestClock()
        let (items, expected) = scrambledItems()
        let (hung, hungSignal) = AsyncStream<Void>.makeStream()

        // First app run: the third request (a response) reaches the server, but the answer never
        // comes back — the app is killed while waiting.
        var firstRun: UploadQueue? = try UploadQueue(
            directory: directory.url,
            sender: { upload in
                let acknowledgement = try await server.receive(upload)
                if await server.requestCount == 3 {
                    hungSignal.yield()
                    try await Task.sleep(for: .seconds(3600))
                }
                return acknowledgement
            },
            clock: clock.uploadClock)
        for item in items { try await firstRun!.enqueue(item) }
        let queue = firstRun!
        let drainTask = Task { await queue.drain() }
        for await _ in hung { break }
        drainTask.cancel()
        let interrupted = await drainTask.value
        #expect(interrupted.outcome == .cancelled)
        #expect(interrupted.delivered.count == 2)
        firstRun = nil

        // Second app run on the same directory.
        let secondRun = try UploadQueue(directory: directory.url, sender: { try await server.receive($0) },
                                        clock: clock.uploadClock)
        #expect(await secondRun.pending().count == items.count - 2)
        let report = await secondRun.drain()
        #expect(report.outcome == .idle)
        #expect(await secondRun.pending().isEmpty)
        #expect(await server.effects == expected)
        // The interrupted response was sent again and recognised by its idempotency key.
        #expect(await server.requestCount == items.count + 1)
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("leftover temporary files are never taken for items, and unreadable files are set aside")
    func temporaryFilesAreNotItems() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = FakeUploadServer()
        let clock = TestClock()
        do {
            let queue = try UploadQueue(directory: directory.url, sender: { try await server.receive($0) },
                                        clock: clock.uploadClock)
            try await queue.enqueue(.response(Fixture.response(key: "k1")))
            try await queue.enqueue(.ignoredBeep(beepID: beepA))
        }
        let itemsFolder = directory.url.appendingPathComponent("items")
        // A write torn by a crash, and a file some other program scribbled over.
        try Data(#"{"id": "5B1E"#.utf8).write(to: itemsFolder.appendingPathComponent(".tmp-\(UUID().uuidString)"))
        try Data("not json".utf8).write(to: itemsFolder.appendingPathComponent("00000000000000000099-x.json"))

        let reopened = try UploadQueue(directory: directory.url, sender: { try await server.receive($0) },
                                       clock: clock.uploadClock)
        #expect(await reopened.pending().map(\.kind) == [.response, .ignoredBeep])
        let names = try FileManager.default.contentsOfDirectory(atPath: itemsFolder.path)
        #expect(names.allSatisfy { !$0.hasPrefix(".tmp-") })
        #expect(names.count == 2)
        let setAside = try FileManager.default.contentsOfDirectory(
            atPath: directory.url.appendingPathComponent("dead-letters").path)
        #expect(setAside.contains { $0.hasPrefix("unreadable-") })

        _ = await reopened.drain()
        let everything = try FileManager.default.subpathsOfDirectory(atPath: directory.url.path)
        #expect(everything.allSatisfy { !$0.contains(".tmp-") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: itemsFolder.path).isEmpty)
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("a newer push token replaces a waiting one; a response key is queued once")
    func supersedingAndDeduplication() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = FakeUploadServer()
        let queue = try UploadQueue(directory: directory.url, sender: { try await server.receive($0) },
                                    clock: TestClock().uploadClock)
        try await queue.enqueue(.pushToken(.apns(token: "0a", environment: .sandbox)))
        try await queue.enqueue(.pushToken(.apns(token: "0b", environment: .sandbox)))
        let first = try await queue.enqueue(.response(Fixture.response(key: "same")))
        let second = try await queue.enqueue(.response(Fixture.response(key: "same")))
        #expect(first.id == second.id)
        let pending = await queue.pending()
        #expect(pending.map(\.item) == [.pushToken(.apns(token: "0b", environment: .sandbox)),
                                        .response(Fixture.response(key: "same"))])
        let reopened = try UploadQueue(directory: directory.url, sender: { try await server.receive($0) },
                                       clock: TestClock().uploadClock)
        #expect(await reopened.pending() == pending)
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("items the contract would refuse are not queued")
    func rejectsInvalidItems() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try UploadQueue(directory: directory.url, sender: { _ in .accepted }, clock: TestClock().uploadClock)
        await #expect(throws: UploadQueueError.self) { try await queue.enqueue(.response(Fixture.response(key: ""))) }
        await #expect(throws: UploadQueueError.self) {
            try await queue.enqueue(.photo(PhotoUpload(responseKey: "k", jpeg: Data(), isPublic: true)))
        }
        #expect(await queue.pending().isEmpty)
    }
}
