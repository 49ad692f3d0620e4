import Fluent
import Foundation
@testable import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Signalling: dispatcher safeguards")
struct SignalDispatcherTests {
    static let london = "Europe/London"
    static let noon = instant("2026-06-10", "12:00", in: london)

    @Test("a beep due now is sent once, with the study's alert text and the participant's sound; the previous beep expires")
    func sendsDueBeepAndExpiresPrevious() async throws {
        try await withTestApp { app, _ in
            let clock = ManualTimeSource(now: Self.noon)
            let channel = RecordingChannel(clock: clock)
            let fixture = try await SignallingFixture.make(on: app.db, now: Self.noon)
            let participant = try await fixture.participant(on: app.db, now: Self.noon)
            let first = try await fixture.pendingBeep(for: participant, at: Self.noon, sequence: 0, on: app.db)
            let second = try await fixture.pendingBeep(for: participant, at: Self.noon.addingTimeInterval(3600), sequence: 1, on: app.db)
            let dispatcher = makeDispatcher(app, clock: clock, channels: [channel])

            let report = try await dispatcher.runCycle()
            #expect(report.sent == 1)
            #expect(report.nextWake == second.scheduledAt)
            try await dispatcher.runCycle()
            #expect(channel.beepIDs == [first.id])
            let message = try #require(channel.all.first?.message)
            #expect(message.alert == fixture.study.alertText)
            #expect(message.sound == "chime")
            #expect(message.badge == 1)
            #expect(message.expiresAt == instant("2026-06-10", "22:00", in: Self.london))

            clock.set(second.scheduledAt)
            try await dispatcher.runCycle()
            #expect(channel.beepIDs == [first.id, second.id])
            let rows = try await beeps(of: participant, on: app.db)
            #expect(rows.map(\.status) == [.expired, .sent])
            #expect(rows[1].claimedBy == "test-worker")
            #expect(rows[1].deliveryOutcome == "accepted")
            #expect(try await DeliveryAttempt.query(on: app.db).count() == 2)
        }
    }

    @Test("a beep whose time fell outside the participant's changed hours is marked missed, not sent; test beeps are exempt")
    func currentHoursAreCheckedAtSendTime() async throws {
        try await withTestApp { app, _ in
            let evening = instant("2026-06-10", "20:00", in: Self.london)
            let clock = ManualTimeSource(now: evening)
            let channel = RecordingChannel(clock: clock)
            let fixture = try await SignallingFixture.make(on: app.db, now: evening)
            let participant = try await fixture.participant(on: app.db, now: evening)
            let planned = try await fixture.pendingBeep(for: participant, at: evening, sequence: 0, on: app.db)
            let test = try await fixture.pendingBeep(for: participant, at: evening, origin: .test, sequence: 0, on: app.db)
            participant.signalEndMinutes = try minutes("18:00")  // changed after planning, without replanning
            try await participant.save(on: app.db)

            try await makeDispatcher(app, clock: clock, channels: [channel]).runCycle()
            #expect(channel.beepIDs == [test.id])
            let missed = try #require(try await Beep.find(planned.id, on: app.db))
            #expect(missed.status == .missed)
            #expect(missed.deliveryOutcome == "outside_hours")
            #expect(missed.deliveryReason?.contains("08:00–18:00") == true)
        }
    }

    @Test("more beeps due at once than the study allows: none is sent and an alert is raised")
    func floodIsRefused() async throws {
        try await withTestApp { app, _ in
            let clock = ManualTimeSource(now: Self.noon)
            let channel = RecordingChannel(clock: clock)
            let fixture = try await SignallingFixture.make(on: app.db, now: Self.noon, maxDueAtOnce: 5)
            var participants = [Participant]()
            for _ in 0..<6 { participants.append(try await fixture.participant(on: app.db, now: Self.noon)) }
            for participant in participants {
                try await fixture.pendingBeep(for: participant, at: Self.noon, sequence: 0, on: app.db)
            }
            app.signalling.install(channels: PushChannelRegistry([channel]), timeSource: clock)
            let dispatcher = try #require(app.signalling.dispatcher)
            try await app.testing().test(.GET, "healthz") { response in
                #expect(response.body.string.contains(#""signalling":"stopped""#))
            }
            let report = try await dispatcher.runCycle()
            #expect(report.refused == 6)
            #expect(channel.all.isEmpty)
            let refused = try await Beep.query(on: app.db).all()
            #expect(refused.allSatisfy { $0.status == .failed && $0.deliveryOutcome == "refused" })
            let health = await dispatcher.currentHealth
            #expect(health.alert?.contains("6 beeps") == true)
            #expect(app.metrics.render().contains("momentary_beeps_due_refused_total 6"))
            #expect(app.metrics.render().contains("momentary_signalling_alert 1"))
            // /healthz shows the alert but stays 200: the server still takes answers.
            try await app.testing().test(.GET, "healthz") { response in
                #expect(response.status == .ok)
                let body = try response.content.decode(HealthRoutes.Health.self)
                #expect(body.status == "alert")
                #expect(body.signalling == "alert")
                #expect(body.signallingAlert?.contains("6 beeps") == true)
            }

            // At the limit itself, beeps go out (and the alert stays until cleared).
            let later = Self.noon.addingTimeInterval(3600)
            for participant in participants.prefix(5) {
                try await fixture.pendingBeep(for: participant, at: later, sequence: 1, on: app.db)
            }
            clock.set(later)
            #expect(try await dispatcher.runCycle().sent == 5)
            #expect(await dispatcher.currentHealth.alert != nil)
            await dispatcher.clearAlert()
            #expect(await dispatcher.currentHealth.isHealthy)
            #expect(app.metrics.render().contains("momentary_signalling_alert 0"))
            try await app.testing().test(.GET, "healthz") { response in
                let body = try response.content.decode(HealthRoutes.Health.self)
                #expect(body.status == "ok")
            }
        }
    }

    @Test("an unregistered token makes the participant inactive and cancels their pending beeps")
    func unregisteredTokenDeactivates() async throws {
        try await withTestApp { app, _ in
            let clock = ManualTimeSource(now: Self.noon)
            let channel = RecordingChannel(clock: clock)
            channel.answer { _ in .unregistered(statusCode: 410, reason: "Unregistered") }
            let fixture = try await SignallingFixture.make(on: app.db, now: Self.noon)
            let participant = try await fixture.participant(on: app.db, now: Self.noon)
            let id = try participant.requireID()
            try await BeepPlanner.planNewParticipant(id, on: app.db, now: Self.noon)
            let due = try await fixture.pendingBeep(for: participant, at: Self.noon, sequence: 99, on: app.db)

            try await makeDispatcher(app, clock: clock, channels: [channel]).runCycle()
            let stored = try #require(try await Participant.find(id, on: app.db))
            #expect(stored.active == false)
            #expect(stored.pushHealth == "unregistered")
            let rows = try await beeps(of: participant, on: app.db)
            #expect(rows.first { $0.id == due.id }?.status == .failed)
            #expect(rows.first { $0.id == due.id }?.deliveryOutcome == "unregistered")
            #expect(rows.filter { $0.id != due.id }.allSatisfy { $0.status == .cancelled })
            #expect(rows.count > 1)
            #expect(try await nextPlanAt(of: participant, on: app.db) == nil)
            let attempt = try #require(try await DeliveryAttempt.query(on: app.db).first())
            #expect(attempt.outcome == "unregistered")
            #expect(attempt.statusCode == 410)
        }
    }

    @Test("a beep claimed by a worker that then crashed is taken over once the worker is 90 s silent, sent once with its identity, and recorded")
    func crashedClaimIsTakenOver() async throws {
        try await withTestApp { app, _ in
            let clock = ManualTimeSource(now: Self.noon)
            let channel = RecordingChannel(clock: clock)
            let fixture = try await SignallingFixture.make(on: app.db, now: Self.noon)
            let participant = try await fixture.participant(on: app.db, now: Self.noon)
            let beep = try await fixture.pendingBeep(for: participant, at: Self.noon, sequence: 0, on: app.db)
            try await BeepStore.heartbeat(of: "crashed-worker", at: Self.noon, on: app.db)
            let claimed = try await BeepStore.claimDue(at: Self.noon, limit: 10, worker: "crashed-worker", on: app.db)
            #expect(claimed.map(\.id) == [beep.id])

            let dispatcher = makeDispatcher(app, clock: clock, channels: [channel])
            for seconds in [0.0, 60] {
                clock.set(Self.noon.addingTimeInterval(seconds))
                try await dispatcher.runCycle()
            }
            #expect(channel.all.isEmpty, "a worker seen within 90 s may still be sending it")
            for seconds in [91.0, 120, 600] {
                clock.set(Self.noon.addingTimeInterval(seconds))
                try await dispatcher.runCycle()
            }
            #expect(channel.beepIDs == [try beep.requireID()], "sent again once, under the beep's own id")
            let stored = try #require(try await Beep.find(beep.id, on: app.db))
            #expect(stored.status == .sent)
            #expect(stored.claimedBy == dispatcher.workerID)
        }
    }

    @Test("a worker restarted under the same id sends the beeps it left mid-send at its first wake; one too late is missed")
    func restartedWorkerResendsAtOnce() async throws {
        try await withTestApp { app, _ in
            let clock = ManualTimeSource(now: Self.noon)
            let channel = RecordingChannel(clock: clock)
            let fixture = try await SignallingFixture.make(on: app.db, now: Self.noon)
            let participant = try await fixture.participant(on: app.db, now: Self.noon)
            let stale = try await fixture.pendingBeep(for: participant, at: Self.noon.addingTimeInterval(-3_600), sequence: 0, on: app.db)
            let fresh = try await fixture.pendingBeep(for: participant, at: Self.noon, sequence: 1, on: app.db)
            try await BeepStore.heartbeat(of: "worker-1", at: Self.noon, on: app.db)
            _ = try await app.db.sql.raw(
                "UPDATE beeps SET status = 'sending', claimed_by = 'worker-1', claimed_at = \(bind: Self.noon)").run()

            let restarted = makeDispatcher(app, clock: clock, channels: [channel], options: SignalDispatcherOptions(
                workerID: "worker-1", maximumSleep: 86_400, randomness: .seeded(7)))
            clock.set(Self.noon.addingTimeInterval(5))
            try await restarted.runCycle()
            #expect(channel.beepIDs == [try fresh.requireID()], "sent at once, not after the 90 s")
            #expect(try await Beep.find(fresh.id, on: app.db)?.status == .sent)
            let late = try #require(try await Beep.find(stale.id, on: app.db))
            #expect(late.status == .missed && late.deliveryOutcome == "late")
        }
    }

    @Test("retryable refusals are retried after 30 s and 2 min, then the beep fails")
    func retryPolicy() async throws {
        try await withTestApp { app, _ in
            let clock = ManualTimeSource(now: Self.noon)
            let channel = RecordingChannel(clock: clock)
            let fixture = try await SignallingFixture.make(on: app.db, now: Self.noon)
            let lucky = try await fixture.participant(on: app.db, now: Self.noon)
            let unlucky = try await fixture.participant(on: app.db, now: Self.noon)
            let luckyID = try lucky.requireID()
            let refusals = SharedCounter()
            channel.answer { message in
                if message.participantID == luckyID, refusals.increment() > 2 {
                    return .accepted(statusCode: 200, serviceID: "apns-1")
                }
                return .rejected(statusCode: 503, reason: "ServiceUnavailable", retryable: true)
            }
            let luckyBeep = try await fixture.pendingBeep(for: lucky, at: Self.noon, sequence: 0, on: app.db)
            let unluckyBeep = try await fixture.pendingBeep(for: unlucky, at: Self.noon, sequence: 0, on: app.db)
            let dispatcher = makeDispatcher(app, clock: clock, channels: [channel])

            var wake = try await dispatcher.runCycle().nextWake
            #expect(wake == Self.noon.addingTimeInterval(30))
            #expect(try await Beep.find(luckyBeep.id, on: app.db)?.status == .sending)
            clock.set(wake)
            wake = try await dispatcher.runCycle().nextWake
            #expect(wake == Self.noon.addingTimeInterval(150))
            clock.set(wake)
            try await dispatcher.runCycle()

            let times = channel.all.filter { $0.message.id == luckyBeep.id }.map { $0.at.timeIntervalSince(Self.noon) }
            #expect(times == [0, 30, 150])
            #expect(try await Beep.find(luckyBeep.id, on: app.db)?.status == .sent)
            let failed = try #require(try await Beep.find(unluckyBeep.id, on: app.db))
            #expect(failed.status == .failed)
            #expect(failed.deliveryReason?.contains("gave up after 3 attempt(s)") == true)
            #expect(try await DeliveryAttempt.query(on: app.db).count() == 6)
        }
    }
}
