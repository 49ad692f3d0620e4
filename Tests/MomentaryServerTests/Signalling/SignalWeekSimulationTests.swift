import Fluent
import Foundation
@testable import MomentaryCore
@testable import MomentaryServer
import Testing

/// A week of signalling for 1,000 participants on the real database, driven by a manual clock
/// that the dispatcher wakes on every 5 minutes (the delivery margin leaves 10).
@Suite("Signalling: a simulated week")
struct SignalWeekSimulationTests {
    static let zones = [
        "Europe/London", "Europe/Berlin", "America/New_York", "America/Los_Angeles", "Asia/Tokyo",
        "Australia/Sydney", "Asia/Kolkata", "Pacific/Auckland", "America/Sao_Paulo", "no/such-zone",
    ]
    static let hours = [
        ("08:00", "22:00"), ("07:00", "21:00"), ("09:30", "17:45"), ("22:00", "06:00"), ("00:00", "23:45"), ("06:00", "12:00"),
    ]
    /// Europe leaves summer time on 25 October 2026, the United States on 1 November.
    static let start = ISO8601DateFormatter().date(from: "2026-10-24T12:00:00Z")!
    static let end = start.addingTimeInterval(8 * 86_400)
    static let changeAt = start.addingTimeInterval(3 * 86_400)
    static let step: TimeInterval = 300
    static let participantCount = 1_000
    static let newSettings = SignallingSettings(beepsPerDay: 2, start: TimeOfDay("10:00")!, end: TimeOfDay("16:00")!)

    /// How a participant's settings changed: replanned through the planner, or only edited.
    enum Change { case none, replanned, editedOnly }

    struct Subject {
        let participant: Participant
        let zone: TimeZone
        let before: SignallingSettings
        let change: Change

        func settings(at instant: Date) -> SignallingSettings {
            change != .none && instant > SignalWeekSimulationTests.changeAt ? SignalWeekSimulationTests.newSettings : before
        }

        func isWithinHours(_ instant: Date) -> Bool {
            let window = SignallingWindow.signallingDay(containing: instant, settings: settings(at: instant), timeZone: zone)
            return instant >= window.start && instant < window.hoursEnd
        }
    }

    @Test("every planned beep is sent exactly once and inside the hours in force; none is lost")
    func simulatedWeek() async throws {
        try await withTestApp { app, _ in
            let clock = ManualTimeSource(now: Self.start)
            let channel = RecordingChannel(clock: clock)
            let dailyAtHalfPastTwelve = #"{"rules": [{"weekly": {"days": ["mon","tue","wed","thu","fri","sat","sun"], "time": "12:30"}}]}"#
            let fixture = try await SignallingFixture.make(
                on: app.db, now: Self.start, fixedRules: dailyAtHalfPastTwelve, defaultTimeZone: "America/Chicago")
            var random = BeepRandomness.seeded(2026)
            var subjects = [UUID: Subject]()
            for index in 0..<Self.participantCount {
                let (startTime, endTime) = Self.hours[(index / 10) % Self.hours.count]
                let beepsPerDay = 1 + (index / 60) % 5
                let zone = Self.zones[index % Self.zones.count]
                let participant = try await fixture.participant(
                    on: app.db, now: Self.start, zone: zone, beepsPerDay: beepsPerDay, start: startTime, end: endTime)
                let id = try participant.requireID()
                try await BeepPlanner.planNewParticipant(id, on: app.db, now: Self.start, using: &random)
                let change: Change = switch (index / 7) % 10 { case 0: .replanned; case 5: .editedOnly; default: .none }
                subjects[id] = Subject(
                    participant: participant, zone: ParticipantTimeZone.resolve(zone, studyDefault: "America/Chicago"),
                    before: SignallingSettings(beepsPerDay: beepsPerDay, start: TimeOfDay(startTime)!, end: TimeOfDay(endTime)!),
                    change: change)
            }

            let dispatcher = makeDispatcher(app, clock: clock, channels: [channel])
            var now = Self.start
            while now < Self.end {
                now = now.addingTimeInterval(Self.step)
                clock.set(now)
                try await dispatcher.runCycle()
                if now == Self.changeAt {
                    try await applyChanges(subjects.values, on: app.db, using: &random)
                }
            }
            try await checkOutcome(subjects, pushes: channel.all, on: app.db)
        }
    }

    private func applyChanges(_ subjects: some Sequence<Subject>, on db: any Database, using random: inout BeepRandomness) async throws {
        for subject in subjects where subject.change != .none {
            let participant = subject.participant
            participant.beepsPerDay = Self.newSettings.beepsPerDay
            participant.signalStartMinutes = Self.newSettings.start.minutes
            participant.signalEndMinutes = Self.newSettings.end.minutes
            try await participant.save(on: db)
            if subject.change == .replanned {
                try await BeepPlanner.settingsChanged(participant.requireID(), on: db, now: Self.changeAt, using: &random)
            }
        }
    }

    private func checkOutcome(_ subjects: [UUID: Subject], pushes: [RecordingChannel.Push], on db: any Database) async throws {
        let rows = try await Beep.query(on: db).all()
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id!, $0) })
        #expect(pushes.count > 20 * Self.participantCount)

        // None twice, none outside the hours in force, none late by more than one wake.
        #expect(Set(pushes.map(\.message.id)).count == pushes.count)
        for push in pushes {
            let beep = try #require(byID[push.message.id])
            let subject = try #require(subjects[beep.$participant.id])
            #expect(subject.isWithinHours(push.at), "beep \(beep.id!) sent at \(push.at) outside the hours")
            let lateness = push.at.timeIntervalSince(beep.scheduledAt)
            #expect(lateness >= 0 && lateness < Self.step)
        }

        // None lost: every beep due by the end was sent, or withheld for a reason we can name.
        let pushed = Set(pushes.map(\.message.id))
        for beep in rows where beep.scheduledAt <= Self.end {
            let subject = try #require(subjects[beep.$participant.id])
            switch beep.status {
            case .sent, .expired:
                #expect(pushed.contains(beep.id!))
            case .missed:
                #expect(beep.deliveryOutcome == "outside_hours")
                #expect(beep.origin == .fixed || subject.change == .editedOnly)
            case .cancelled:
                #expect(subject.change == .replanned && beep.scheduledAt > Self.changeAt)
            default:
                Issue.record("beep \(beep.id!) due \(beep.scheduledAt) ended \(beep.status)")
            }
            if beep.origin == .fixed && beep.status != .cancelled {
                #expect((beep.status == .missed) == !subject.isWithinHours(beep.scheduledAt))
            }
        }

        // Every day planned in full: each participant whose settings never changed has exactly
        // their number of random beeps on every day after registration, up to the day after the end.
        let randomByParticipant = Dictionary(grouping: rows.filter { $0.origin == .random }, by: { $0.$participant.id })
        for subject in subjects.values where subject.change == .none {
            let id = try subject.participant.requireID()
            let random = randomByParticipant[id] ?? []
            let registered = SignallingWindow.signallingDay(containing: Self.start, settings: subject.before, timeZone: subject.zone).localDate
            let last = SignallingWindow.signallingDay(containing: Self.end, settings: subject.before, timeZone: subject.zone).localDate.adding(days: 1)
            for offset in 1...registered.days(until: last) {
                let day = registered.adding(days: offset).description
                #expect(random.filter { $0.localDate == day }.count == subject.before.beepsPerDay, "\(id) on \(day)")
            }
        }
    }
}
