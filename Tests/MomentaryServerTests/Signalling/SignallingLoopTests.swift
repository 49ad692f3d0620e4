import Fluent
import Foundation
@testable import MomentaryServer
import Testing

@Suite("Signalling: the running service")
struct SignallingLoopTests {
    @Test("a manual clock wakes each sleeper when its deadline comes, and a cancelled sleeper at once")
    func manualClockWakesSleepers() async throws {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let clock = ManualTimeSource(now: start)
        let early = Task { try await clock.sleep(until: start.addingTimeInterval(10)) }
        let late = Task { try await clock.sleep(until: start.addingTimeInterval(20)) }
        try await eventually("both tasks sleep") { clock.sleeperCount == 2 }
        clock.advance(by: 15)
        try await early.value
        #expect(clock.sleeperCount == 1)
        #expect(clock.earliestDeadline == start.addingTimeInterval(20))
        late.cancel()
        await #expect(throws: CancellationError.self) { try await late.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("the service sleeps until the next beep, wakes early when told the schedule changed, and stops cleanly")
    func serviceWakesForBeeps() async throws {
        try await withTestApp { app, _ in
            let noon = instant("2026-06-10", "12:00", in: "Europe/London")
            let clock = ManualTimeSource(now: noon)
            let channel = RecordingChannel(clock: clock)
            let fixture = try await SignallingFixture.make(on: app.db, now: noon)
            let participant = try await fixture.participant(on: app.db, now: noon)
            let later = try await fixture.pendingBeep(for: participant, at: noon.addingTimeInterval(3600), sequence: 0, on: app.db)

            app.signalling.install(
                channels: PushChannelRegistry([channel]), timeSource: clock,
                options: SignalDispatcherOptions(workerID: "loop", maximumSleep: 86_400, randomness: .seeded(3)))
            await app.signalling.start()
            try await eventually("the service sleeps until the hour's beep") {
                clock.earliestDeadline == later.scheduledAt
            }
            #expect(await app.signalling.health()?.running == true)

            // A beep planned sooner than the one the service waits for: without the nudge it would
            // wait for the later one.
            let sooner = try await fixture.pendingBeep(for: participant, at: noon.addingTimeInterval(60), sequence: 1, on: app.db)
            app.signalling.notifyScheduleChanged()
            try await eventually("the service sleeps until the sooner beep") {
                clock.earliestDeadline == sooner.scheduledAt
            }
            clock.set(sooner.scheduledAt)
            try await eventually("the sooner beep is sent") { channel.beepIDs == [sooner.id] }
            clock.set(later.scheduledAt)
            do {
                try await eventually("the later beep is sent") { channel.beepIDs.count >= 2 }
            } catch {
                Issue.record("sent so far: \(channel.beepIDs); the clock's sleepers wait for \(String(describing: clock.earliestDeadline))")
                throw error
            }
            #expect(channel.beepIDs == [sooner.id, later.id], "exactly the two beeps, in order")

            await app.signalling.shutdown()
            let health = try #require(await app.signalling.health())
            #expect(health.running == false)
            #expect(health.sentTotal == 2)
        }
    }
}
