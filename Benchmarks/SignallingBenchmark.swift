import Fluent
import Foundation
import MomentaryServer
import SQLKit
import Synchronization
import Vapor

/// Due-to-sent latency of the signaller with the real clock, on a file SQLite database holding
/// `participants` participants, each with a day of pending beeps (the index the dispatcher
/// searches), plus `due` beeps falling due at whole seconds spread over `windowSeconds`.
/// The channel records when each push is handed to it (`memory`), or appends to the outbox file
/// (`outbox`). Prints one JSON line.
enum SignallingBenchmark {
    static func run(participants: Int) async throws {
        try await run(participants: participants, due: 10_000)
    }

    static func run(participants: Int, due: Int, windowSeconds: Int = 60, channel: String = "memory") async throws {
        let result = try await BenchmarkApp.run("signal") { app, directory in
            try await measure(app, directory: directory, participants: participants, due: due,
                              windowSeconds: windowSeconds, channelName: channel)
        }
        print(result)
    }

    private static func measure(
        _ app: Application, directory: URL, participants: Int, due: Int, windowSeconds: Int, channelName: String
    ) async throws -> String {
        let sql = app.db.sql
        let seedStarted = Date()
        let (studyID, participantIDs) = try await seed(sql, participants: participants, due: due)
        let seedSeconds = Date().timeIntervalSince(seedStarted)

        // The measured beeps: whole seconds over the window, starting a little after seeding.
        let windowStart = (Date().timeIntervalSince1970 + 3).rounded(.up)
        var generator = SystemRandomNumberGenerator()
        var measured = [BeepRow]()
        for index in 0..<due {
            let at = Date(timeIntervalSince1970: windowStart + Double(Int.random(in: 0..<windowSeconds, using: &generator)))
            measured.append(BeepRow(participantID: participantIDs[index % participantIDs.count], studyID: studyID,
                                    localDate: "2000-01-01", sequence: index / participantIDs.count, scheduledAt: at))
        }
        try await BenchmarkApp.insert(measured, into: "beeps", on: sql)
        let scheduled = Dictionary(uniqueKeysWithValues: measured.map { ($0.id, $0.scheduledAt) })

        let recorder = HandoverRecorder()
        var channels = PushChannelRegistry()
        if channelName == "outbox" {
            channels.register(TimingChannel(inner: OutboxChannel(path: directory.appendingPathComponent("push-outbox.jsonl").path), recorder: recorder))
        } else {
            channels.register(TimingChannel(inner: nil, recorder: recorder))
        }
        let dispatcher = SignalDispatcher(
            database: app.db, channels: channels, options: SignalDispatcherOptions(workerID: "bench"), logger: app.logger)
        await dispatcher.start()
        let deadline = Date(timeIntervalSince1970: windowStart + Double(windowSeconds) + 120)
        while recorder.count < due && Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        await dispatcher.shutdown()

        let latencies = recorder.handovers.compactMap { handover in
            scheduled[handover.0].map { handover.1.timeIntervalSince($0) * 1000 }
        }.sorted()
        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return .nan }
            return latencies[min(latencies.count - 1, Int((Double(latencies.count) * p).rounded(.up)) - 1)]
        }
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        let fields: [String] = [
            #""benchmark":"signalling""#, #""build":"\#(build)""#, #""database":"sqlite-file""#, #""channel":"\#(channelName)""#,
            #""participants":\#(participants)"#, #""pending_beeps":\#(participants * 2 + due)"#, #""due":\#(due)"#,
            #""window_s":\#(windowSeconds)"#, #""sent":\#(latencies.count)"#,
            #""latency_p50_ms":\#(round(percentile(0.50)))"#, #""latency_p99_ms":\#(round(percentile(0.99)))"#,
            #""latency_max_ms":\#(round(latencies.last ?? .nan))"#, #""seed_s":\#(round(seedSeconds))"#,
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A study, the participants (planned through tomorrow, so the planner stays idle) and two
    /// pending beeps each later today, inserted in large batches.
    private static func seed(_ sql: any SQLDatabase, participants: Int, due: Int) async throws -> (UUID, [UUID]) {
        let now = Date()
        let study = BenchmarkStudyRow(
            slug: "bench-signalling", name: "Signalling benchmark", hours: awake, maxDueAtOnce: participants + due, now: now)
        try await BenchmarkApp.insert([study], into: "studies", on: sql)
        let rows = (0..<participants).map { _ in
            BenchmarkParticipantRow(studyID: study.id, hours: awake, registeredOn: "2000-01-01", plannedThrough: "2999-12-31", now: now)
        }
        try await BenchmarkApp.insert(rows, into: "participants", on: sql)
        var later = [BeepRow]()
        for row in rows {
            for sequence in 0..<2 {
                let at = now.addingTimeInterval(Double(3_600 + Int.random(in: 0..<36_000)))
                later.append(BeepRow(participantID: row.id, studyID: study.id, localDate: "2000-01-02", sequence: sequence, scheduledAt: at))
            }
        }
        try await BenchmarkApp.insert(later, into: "beeps", on: sql)
        return (study.id, rows.map(\.id))
    }

    /// Awake all day (00:00–23:45 London), so every measured beep is inside the hours.
    private static let awake = 0...1_425

}

/// Remembers when each push reached the channel.
private final class HandoverRecorder: Sendable {
    private let state = Mutex<[(UUID, Date)]>([])
    func record(_ id: UUID, at: Date) { state.withLock { $0.append((id, at)) } }
    var count: Int { state.withLock { $0.count } }
    var handovers: [(UUID, Date)] { state.withLock { $0 } }
}

/// Stamps each push as it arrives, then hands it to the outbox (or accepts it in memory).
private struct TimingChannel: PushChannel {
    let inner: OutboxChannel?
    let recorder: HandoverRecorder
    var name: String { "outbox" }

    func send(_ message: PushMessage, to target: PushTarget) async -> PushOutcome {
        recorder.record(message.id, at: Date())
        return await inner?.send(message, to: target) ?? .accepted(statusCode: nil, serviceID: nil)
    }
}



private struct BeepRow: Encodable, Sendable {
    let id = UUID()
    let participantId: UUID
    let studyId: UUID
    let origin = "random"
    let localDate: String
    let sequence: Int
    let scheduledAt: Date
    let status = "pending"
    let createdAt: Date

    init(participantID: UUID, studyID: UUID, localDate: String, sequence: Int, scheduledAt: Date) {
        participantId = participantID
        self.studyId = studyID
        self.localDate = localDate
        self.sequence = sequence
        self.scheduledAt = scheduledAt
        createdAt = scheduledAt
    }
}
