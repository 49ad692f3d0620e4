import Foundation
import MomentaryClient
import MomentaryCore
import Testing

@Suite("Upload queue: retries and dead letters")
struct UploadQueueRetryTests {
    @available(macOS 15.0, iOS 18.0, *)
    @Test("while the network is down the pause doubles up to the cap, and delivery resumes after")
    func backoffGrowsToCap() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock()
        let server = FakeUploadServer()
        let online = OnlineSwitch()
        let policy = BackoffPolicy(initialDelay: 5, multiplier: 2, maximumDelay: 60, jitter: 0.5)
        let queue = try UploadQueue(
            directory: directory.url,
            sender: { upload in
                guard await online.isOnline else { throw MomentaryClientError.cannotConnect(reason: "offline") }
                return try await server.receive(upload)
            },
            backoff: policy, clock: clock.uploadClock, randomUnit: { 0 })
        try await queue.enqueue(.response(Fixture.response(key: "k1")))
        try await queue.enqueue(.response(Fixture.response(key: "k2")))

        var pauses: [TimeInterval] = []
        for _ in 0..<7 {
            let report = await queue.drain()
            guard case .paused(let until, _) = report.outcome else {
                Issue.record("expected a pause, got \(report.outcome)")
                return
            }
            #expect(report.nextAttemptAt == until)
            pauses.append(until.timeIntervalSince(clock.now))
            // Draining again before the pause ends sends nothing.
            #expect(await queue.drain().delivered.isEmpty)
            clock.set(until)
        }
        #expect(pauses == [5, 10, 20, 40, 60, 60, 60])
        // Each failure is recorded on the head item, which stays at the head.
        let head = try #require(await queue.pending().first)
        #expect(head.responseKey == "k1")
        #expect(head.attempts == 7)

        await online.set(true)
        let report = await queue.drain()
        #expect(report.delivered.count == 2)
        #expect(await server.effects == ["response:k1", "response:k2"])
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("run() sleeps out the pause and delivers once the network is back")
    func runLoopRetries() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock()
        let server = FakeUploadServer()
        let failures = Counter()
        let sleeps = SleepLog()
        let sleepingClock = UploadClock(now: { clock.now }, sleep: { seconds in
            // Stop the loop once it has nothing left to do.
            guard await sleeps.record(seconds) < 4 else { throw CancellationError() }
            clock.advance(by: seconds)
        })
        let queue = try UploadQueue(
            directory: directory.url,
            sender: { upload in
                if await failures.increment() == 1 { throw MomentaryClientError.timeout }
                return try await server.receive(upload)
            },
            backoff: BackoffPolicy(initialDelay: 5, jitter: 0), clock: sleepingClock)
        try await queue.enqueue(.response(Fixture.response(key: "k1")))
        await queue.run(idleInterval: 60)
        #expect(await server.effects == ["response:k1"])
        #expect(await sleeps.durations.first == 5)
        #expect(await sleeps.durations.dropFirst().allSatisfy { $0 == 60 })
    }

    @Test("jitter only ever shortens a delay, within its fraction, and never past the cap")
    func jitterBounds() {
        let policy = BackoffPolicy(initialDelay: 2, multiplier: 3, maximumDelay: 100, jitter: 0.25)
        for attempts in 1...10 {
            let full = policy.delay(afterAttempts: attempts, unitRandom: 0)
            let shortest = policy.delay(afterAttempts: attempts, unitRandom: 0.999_999)
            #expect(full == min(2 * pow(3, Double(attempts - 1)), 100))
            #expect(shortest <= full && shortest >= full * 0.75)
        }
        #expect(policy.delay(afterAttempts: 10_000, unitRandom: 0) == 100)
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("Retry-After from a 429 or 503 is honoured even beyond the backoff")
    func honoursRetryAfter() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock()
        let queue = try UploadQueue(
            directory: directory.url,
            sender: { _ in throw MomentaryClientError(status: 429, retryAfterHeader: "300", body: Data()) },
            backoff: BackoffPolicy(initialDelay: 5, maximumDelay: 60), clock: clock.uploadClock, randomUnit: { 0 })
        try await queue.enqueue(.ignoredBeep(beepID: UUID()))
        let report = await queue.drain()
        #expect(report.nextAttemptAt == clock.now.addingTimeInterval(300))
        #expect(report.remaining == 1)
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("a permanent refusal moves the item and its photos to the dead letters, never retried")
    func permanentFailuresAreSetAside() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock()
        let server = FakeUploadServer()
        let (logged, logSink) = AsyncStream<String>.makeStream()
        let queue = try UploadQueue(
            directory: directory.url,
            sender: { upload in
                if case .response(let response) = upload, response.idempotencyKey == "bad" {
                    let body = try WireCoding.makeEncoder().encode(
                        APIErrorBody(code: .validationFailed, message: "Question “happy” takes 0–100."))
                    throw MomentaryClientError(status: 422, retryAfterHeader: nil, body: body)
                }
                return try await server.receive(upload)
            },
            clock: clock.uploadClock, log: { logSink.yield($0) })
        try await queue.enqueue(.response(Fixture.response(key: "bad")))
        try await queue.enqueue(.photo(Fixture.photo(for: "bad")))
        try await queue.enqueue(.response(Fixture.response(key: "good")))

        let report = await queue.drain()
        #expect(report.delivered.map(\.kind) == [.response])
        #expect(report.deadLettered.map(\.upload.kind) == [.response, .photo])
        #expect(report.deadLettered.first?.reason.contains("Question “happy” takes 0–100.") == true)
        #expect(report.remaining == 0)
        #expect(await server.effects == ["response:good"])
        logSink.finish()
        var lines: [String] = []
        for await line in logged { lines.append(line) }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("dropped") })

        let letters = try await queue.deadLetters()
        #expect(Set(letters.map(\.upload.id)) == Set(report.deadLettered.map(\.upload.id)))
        let requestsBefore = await server.requestCount
        clock.advance(by: 24 * 60 * 60)
        _ = await queue.drain()
        #expect(await server.requestCount == requestsBefore)

        // The record survives a restart and can be queued again.
        let reopened = try UploadQueue(directory: directory.url, sender: { try await server.receive($0) },
                                       clock: clock.uploadClock)
        #expect(try await reopened.deadLetters().count == 2)
        #expect(try await reopened.requeueDeadLetters() == 2)
        #expect(await reopened.pending().map(\.kind) == [.response, .photo])
        #expect(try await reopened.deadLetters().isEmpty)
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("an item the server fails on (500) backs off alone; the rest, and later its photo, go through")
    func itemFailureDoesNotBlockTheQueue() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock()
        let server = FakeUploadServer()
        let failures = Counter()
        let queue = try UploadQueue(
            directory: directory.url,
            sender: { upload in
                if case .response(let response) = upload, response.idempotencyKey == "flaky",
                   await failures.increment() <= 2 {
                    throw MomentaryClientError.unavailable(status: 500, retryAfter: nil)
                }
                return try await server.receive(upload)
            },
            backoff: BackoffPolicy(initialDelay: 5, jitter: 0), clock: clock.uploadClock)
        try await queue.enqueue(.response(Fixture.response(key: "flaky")))
        try await queue.enqueue(.photo(Fixture.photo(for: "flaky", byte: 7)))
        try await queue.enqueue(.response(Fixture.response(key: "fine")))
        let beep = UUID()
        try await queue.enqueue(.ignoredBeep(beepID: beep))

        let first = await queue.drain()
        #expect(first.outcome == .idle)
        #expect(await server.effects == ["response:fine", "ignored:\(beep)"])
        #expect(first.nextAttemptAt == clock.now.addingTimeInterval(5))
        // The photo waits for its response rather than failing.
        #expect(await queue.pending().map(\.kind) == [.response, .photo])

        clock.set(try #require(first.nextAttemptAt))
        let second = await queue.drain()
        #expect(second.nextAttemptAt == clock.now.addingTimeInterval(10))
        clock.set(try #require(second.nextAttemptAt))
        let third = await queue.drain()
        #expect(third.delivered.map(\.kind) == [.response, .photo])
        #expect(await server.effects == ["response:fine", "ignored:\(beep)", "response:flaky", "photo:flaky:7"])
    }

    @available(macOS 15.0, iOS 18.0, *)
    @Test("a photo queued after its response was delivered still finds the server's response id")
    func photoAfterDeliveredResponse() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = TestClock()
        let server = FakeUploadServer()
        let queue = try UploadQueue(directory: directory.url, sender: { try await server.receive($0) },
                                    clock: clock.uploadClock)
        try await queue.enqueue(.response(Fixture.response(key: "k")))
        _ = await queue.drain()
        let reopened = try UploadQueue(directory: directory.url, sender: { try await server.receive($0) },
                                       clock: clock.uploadClock)
        try await reopened.enqueue(.photo(Fixture.photo(for: "k", byte: 9)))
        try await reopened.enqueue(.photo(Fixture.photo(for: "never-sent", byte: 8)))
        let report = await reopened.drain()
        #expect(report.delivered.map(\.kind) == [.photo])
        #expect(report.deadLettered.map(\.upload.kind) == [.photo])
        #expect(await server.effects == ["response:k", "photo:k:9"])
    }
}

actor OnlineSwitch {
    private(set) var isOnline = false
    func set(_ value: Bool) { isOnline = value }
}

actor SleepLog {
    private(set) var durations: [TimeInterval] = []
    /// Records a sleep and returns how many came before it.
    func record(_ seconds: TimeInterval) -> Int {
        durations.append(seconds)
        return durations.count - 1
    }
}

actor Counter {
    private var value = 0
    func increment() -> Int {
        value += 1
        return value
    }
}

extension QueuedUpload {
    var responseKey: String? {
        if case .response(let response) = item { response.idempotencyKey } else { nil }
    }
}
