import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// Two dispatchers, each with its own application and connection pool (as two worker processes
/// would have), on one database: PostgreSQL when `MOMENTARY_TEST_DATABASE_URL` is set (CI),
/// else the same SQLite file, so the test always runs.
@Suite("Signalling: concurrent dispatchers")
struct ConcurrentDispatchersTests {
    @Test("two dispatchers sending at the same time never send a beep twice, and together send them all")
    func twoDispatchersNeverDoubleSend() async throws {
        try await withTestApp { app, configuration in
            let start = instant("2026-06-10", "12:00", in: "Europe/London")
            let clock = ManualTimeSource(now: start)
            let channel = RecordingChannel(clock: clock)
            let fixture = try await SignallingFixture.make(on: app.db, now: start, maxDueAtOnce: 100_000)
            var beeps = [Beep]()
            for index in 0..<400 {
                let participant = try await fixture.participant(on: app.db, now: start)
                for sequence in 0..<5 {
                    let at = start.addingTimeInterval(Double(sequence * 400 + index) * 0.3)
                    beeps.append(try await fixture.pendingBeep(for: participant, at: at, sequence: sequence, on: app.db))
                }
            }

            let secondApp = try await Application.make(.testing)
            secondApp.logger.logLevel = .warning
            do {
                try await configure(secondApp, configuration)
                let options = { (worker: String) in
                    SignalDispatcherOptions(workerID: worker, claimBatchSize: 25, maximumSleep: 86_400, randomness: .seeded(1))
                }
                let first = makeDispatcher(app, clock: clock, channels: [channel], options: options("worker-a"))
                let second = makeDispatcher(secondApp, clock: clock, channels: [channel], options: options("worker-b"))
                let last = try #require(beeps.map(\.scheduledAt).max())
                var now = start
                while now <= last {
                    now = now.addingTimeInterval(20)
                    clock.set(now)
                    async let a = first.runCycle()
                    async let b = second.runCycle()
                    _ = try await (a, b)
                }
            } catch {
                try? await secondApp.asyncShutdown()
                throw error
            }
            try await secondApp.asyncShutdown()

            let sent = channel.beepIDs
            #expect(sent.count == beeps.count)
            #expect(Set(sent) == Set(beeps.compactMap(\.id)))
            let rows = try await Beep.query(on: app.db).all()
            #expect(rows.allSatisfy { $0.status == .sent || $0.status == .expired })
            #expect(Set(rows.compactMap(\.claimedBy)).isSubset(of: ["worker-a", "worker-b"]))
            #expect(try await DeliveryAttempt.query(on: app.db).count() == beeps.count)
        }
    }
}
