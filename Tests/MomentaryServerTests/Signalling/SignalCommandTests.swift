import Fluent
import Foundation
@testable import MomentaryServer
import Testing

/// `momentary signal` as an operator runs it: the built executable in a process of its own, so
/// SIGTERM reaches it exactly as it would from a service manager.
@Suite("Signalling: momentary signal")
struct SignalCommandTests {
    @Test("the worker sends a due beep through the outbox with the real clock and stops cleanly on SIGTERM")
    func workerSendsAndStops() async throws {
        let data = TestScratch.file("momentary-signal")
        defer { try? FileManager.default.removeItem(at: data) }
        let configuration = try Configuration.load(environment: [:], dataDirectoryOverride: data.path)
        let beepID = try await AppFactory.withApp(configuration) { app in
            try await app.migrateAtomically()
            let now = Date()
            let fixture = try await SignallingFixture.make(on: app.db, now: now)
            let participant = try await fixture.participant(on: app.db, now: now, start: "00:00", end: "00:00")
            return try await fixture.pendingBeep(for: participant, at: now, origin: .test, sequence: 0, on: app.db).requireID()
        }

        let worker = try ServerProcess(arguments: ["signal", "--worker-id", "cli-worker", "--data", data.path])
        defer { worker.terminate() }
        let outbox = data.appendingPathComponent("push-outbox.jsonl")
        try await eventually("the worker has started") { worker.output.contains("Signalling worker cli-worker is running") }
        try await eventually("the beep is in the outbox") {
            (try? String(contentsOf: outbox, encoding: .utf8))?.contains(beepID.uuidString) == true
        }
        worker.terminate()
        try await eventually("the worker says it stops and exits") {
            worker.output.contains("Received SIGTERM") && !worker.isRunning
        }
        #expect(await worker.stop() == 0, "exit status after SIGTERM; output: \(worker.output)")
        try await AppFactory.withApp(configuration) { app in
            let beep = try #require(try await Beep.find(beepID, on: app.db))
            #expect(beep.status == .sent)
            #expect(beep.claimedBy == "cli-worker")
        }
    }
}
