import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

/// Routes do not wake the dispatcher themselves: a request whose work plans beeps does, through
/// `PlanChanges`, once its transactions have committed.
@Suite("Signalling: a request that plans beeps wakes the dispatcher")
struct PlanChangesWakeTests {
    @Test("registering through the API moves a dispatcher asleep for a day to the new participant's first beep")
    func registrationWakesTheDispatcher() async throws {
        let morning = instant("2026-06-10", "09:00", in: "Europe/London")
        let clock = ManualTimeSource(now: morning)
        try await withRunningServer(timeSource: clock) { server in
            let app = server.app
            try await APIFixture.seedDemo(on: app.db)
            let channel = RecordingChannel(clock: clock)
            app.signalling.install(
                channels: PushChannelRegistry([channel]), timeSource: clock,
                options: SignalDispatcherOptions(workerID: "wake", maximumSleep: 86_400, randomness: .seeded(5)))
            await app.signalling.start()
            defer { Task { await app.signalling.shutdown() } }
            let pendingBefore = try await Beep.query(on: app.db).filter(\.$status == .pending).sort(\.$scheduledAt).first()
            let asleepUntil = pendingBefore?.scheduledAt ?? morning.addingTimeInterval(86_400)
            try await eventually("the dispatcher sleeps until its next beep or for a day") { clock.earliestDeadline == asleepUntil }

            let (_, registered) = try await APIFixture.register(on: server)
            let first = try #require(try await Beep.query(on: app.db).filter(\.$participant.$id == registered.participantID)
                .filter(\.$status == .pending).sort(\.$scheduledAt).first())
            #expect(first.scheduledAt < asleepUntil, "the new participant is beeped today, before the dispatcher's next wake")
            try await eventually("the dispatcher wakes and sleeps until the new beep") { clock.earliestDeadline == first.scheduledAt }
            await app.signalling.shutdown()
        }
    }
}
