import Fluent
import Foundation
@testable import MomentaryCore
@testable import MomentaryServer
import Testing

/// Ten days of a 2026 protocol on the real database and the real dispatcher, the clock waking it
/// every 5 minutes: six beeps a day (stratified, and uniform), 15 minutes to begin, reminders
/// after 5 and 10, participants in four zones across both autumn clock changes, some changing
/// their settings mid-day, a third of the beeps opened as soon as they arrive.
///
/// `MOMENTARY_FULL_SIMULATION=1` runs a month of 1,000 participants, enough beeps for the uniformity
/// checks to see a small bias (about half an hour per sampling method, so not in every test run;
/// BENCHMARKS.md has the last).
@Suite("Signalling: a simulated fortnight of beeps with reminders and expiry")
struct SignalProtocolSimulationTests {
    static let full = ProcessInfo.processInfo.environment["MOMENTARY_FULL_SIMULATION"] == "1"
    static let zones = ["Europe/London", "America/New_York", "Asia/Kolkata", "Australia/Sydney"]
    static let hours = [("08:00", "22:00"), ("09:00", "21:00")]
    /// Europe leaves summer time on 25 October 2026, the United States on 1 November.
    static let start = ISO8601DateFormatter().date(from: "2026-10-23T12:00:00Z")!
    static let end = start.addingTimeInterval((full ? 30 : 10) * 86_400)
    static let changeAt = start.addingTimeInterval(4 * 86_400 + 3_600)
    static let step: TimeInterval = 300
    static let perZoneAndHours = full ? 125 : 20
    static let beepsPerDay = 6
    static let reminderText = "A reminder: how are you?"
    static let newSettings = SignallingSettings(beepsPerDay: 4, start: TimeOfDay("10:00")!, end: TimeOfDay("18:00")!)

    struct Subject {
        let participant: Participant
        let zone: TimeZone
        let before: SignallingSettings
        let changes: Bool

        func settings(at instant: Date) -> SignallingSettings {
            changes && instant > SignalProtocolSimulationTests.changeAt ? SignalProtocolSimulationTests.newSettings : before
        }

        func isWithinHours(_ instant: Date) -> Bool {
            let window = SignallingWindow.signallingDay(containing: instant, settings: settings(at: instant), timeZone: zone)
            return instant >= window.start && instant < window.hoursEnd
        }
    }

    @Test("beeps uniform over the window, or one per block and uniform within it; reminders on time, never after an opening or outside the hours; every beep expires once",
          arguments: [SamplingMethod.stratified, .uniform])
    func simulatedProtocol(sampling: SamplingMethod) async throws {
        try await withTestApp { app, _ in
            let clock = ManualTimeSource(now: Self.start)
            let channel = RecordingChannel(clock: clock)
            let fixture = try await SignallingFixture.make(on: app.db, now: Self.start, minimumGap: 30)
            fixture.study.sampling = sampling.rawValue
            fixture.study.maxBeepsPerDay = Self.beepsPerDay
            fixture.study.setAnswerWindow(AnswerWindow(answerWindowMinutes: 15, completionMinutes: 30, remindersAfterMinutes: [5, 10]))
            fixture.study.reminderAlertText = Self.reminderText
            try await fixture.study.save(on: app.db)

            var random = BeepRandomness.seeded(34)
            var subjects = [UUID: Subject]()
            for (zoneIndex, zone) in Self.zones.enumerated() {
                for (hoursIndex, (startTime, endTime)) in Self.hours.enumerated() {
                    for index in 0..<Self.perZoneAndHours {
                        let participant = try await fixture.participant(
                            on: app.db, now: Self.start, zone: zone, beepsPerDay: Self.beepsPerDay, start: startTime, end: endTime)
                        let id = try participant.requireID()
                        try await BeepPlanner.planNewParticipant(id, on: app.db, now: Self.start, using: &random)
                        subjects[id] = Subject(
                            participant: participant, zone: TimeZone(identifier: zone)!,
                            before: SignallingSettings(beepsPerDay: Self.beepsPerDay, start: TimeOfDay(startTime)!, end: TimeOfDay(endTime)!),
                            changes: (index + zoneIndex + hoursIndex) % 5 == 0)
                    }
                }
            }

            let dispatcher = makeDispatcher(app, clock: clock, channels: [channel])
            var opened = [UUID: Date]()
            var seen = 0
            var now = Self.start
            while now < Self.end {
                now = now.addingTimeInterval(Self.step)
                clock.set(now)
                try await dispatcher.runCycle()
                // A third of the beeps are opened the moment they arrive (the app fetching their survey).
                let pushes = channel.all
                for push in pushes[seen...] where push.message.alert != Self.reminderText && push.message.id.uuid.15 % 3 == 0 {
                    let beep = try #require(try await Beep.find(push.message.id, on: app.db))
                    _ = try await BeepOpening.open(
                        push.message.id, of: beep.$participant.id, studyID: try fixture.study.requireID(), on: app.db, now: now)
                    opened[push.message.id] = now
                }
                seen = pushes.count
                if now == Self.changeAt {
                    for subject in subjects.values where subject.changes {
                        SignallingPolicy.apply(Self.newSettings, to: subject.participant)
                        try await subject.participant.save(on: app.db)
                        try await BeepPlanner.settingsChanged(subject.participant.requireID(), on: app.db, now: now, using: &random)
                    }
                }
            }
            try await check(subjects, opened: opened, pushes: channel.all, on: app.db)
            try await checkTimes(subjects, sampling: sampling, on: app.db)
        }
    }

    private func check(_ subjects: [UUID: Subject], opened: [UUID: Date], pushes: [RecordingChannel.Push], on db: any Database) async throws {
        let rows = try await Beep.query(on: db).filter(\.$origin == .random).all()
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id!, $0) })
        let beepPushes = pushes.filter { $0.message.alert != Self.reminderText }
        let reminderPushes = Dictionary(grouping: pushes.filter { $0.message.alert == Self.reminderText }, by: \.message.id)

        // Each beep pushed once, on time, inside the hours.
        #expect(Set(beepPushes.map(\.message.id)).count == beepPushes.count, "no beep pushed twice")
        var sentAt = [UUID: Date]()
        for push in beepPushes {
            let beep = try #require(byID[push.message.id])
            let subject = try #require(subjects[beep.$participant.id])
            #expect(subject.isWithinHours(push.at))
            #expect(push.at.timeIntervalSince(beep.scheduledAt) >= 0 && push.at.timeIntervalSince(beep.scheduledAt) < Self.step)
            sentAt[push.message.id] = push.at
        }

        // Reminders: at 5 and 10 minutes, at most two, none after an opening, none outside the hours.
        var reminded = 0
        for (beepID, reminders) in reminderPushes {
            let sent = try #require(sentAt[beepID], "a reminder of a beep never sent")
            let beep = try #require(byID[beepID])
            let subject = try #require(subjects[beep.$participant.id])
            #expect(opened[beepID] == nil, "a reminder after the beep was opened")
            #expect(reminders.count <= 2)
            for (index, reminder) in reminders.sorted(by: { $0.at < $1.at }).enumerated() {
                #expect(abs(reminder.at.timeIntervalSince(sent) - Double(index + 1) * Self.step) < 1, "reminder \(index + 1) of \(beepID)")
                #expect(subject.isWithinHours(reminder.at), "a reminder outside the hours")
            }
            reminded += reminders.count
        }
        #expect(reminded > beepPushes.count, "most unopened beeps got both reminders: \(reminded) for \(beepPushes.count) beeps")

        // Every beep sent is expired once its time is over, never answered (nobody answered) nor lost.
        for (beepID, sent) in sentAt where sent < Self.end.addingTimeInterval(-3_600) {
            let beep = try #require(byID[beepID])
            #expect(beep.status == .expired, "beep \(beepID) ended \(beep.status)")
            let deadline = opened[beepID].map { $0.addingTimeInterval(30 * 60) } ?? sent.addingTimeInterval(15 * 60)
            #expect(beep.expiresAt.map { abs($0.timeIntervalSince(deadline)) < 1 } == true)
        }
        for beep in rows where beep.scheduledAt <= Self.end.addingTimeInterval(-Self.step) && sentAt[beep.id!] == nil {
            let subject = try #require(subjects[beep.$participant.id])
            #expect(beep.status == .cancelled && subject.changes, "beep \(beep.id!) due \(beep.scheduledAt) ended \(beep.status) unsent")
        }
    }

    /// On every whole day of a participant who kept their settings: six beeps at least the gap
    /// apart; stratified, one in each sixth of the window, uniformly placed within it; uniform,
    /// each uniformly placed over the window (Kolmogorov–Smirnov at α = 0.001).
    private func checkTimes(_ subjects: [UUID: Subject], sampling: SamplingMethod, on db: any Database) async throws {
        let rows = try await Beep.query(on: db).filter(\.$origin == .random).all()

        var positions: [Double] = []
        let byParticipant = Dictionary(grouping: rows, by: { $0.$participant.id })
        for subject in subjects.values where !subject.changes {
            let beeps = byParticipant[try subject.participant.requireID()] ?? []
            let first = SignallingWindow.signallingDay(containing: Self.start, settings: subject.before, timeZone: subject.zone).localDate
            let last = SignallingWindow.signallingDay(containing: Self.end, settings: subject.before, timeZone: subject.zone).localDate
            for offset in 1..<first.days(until: last) {
                let day = first.adding(days: offset)
                let window = SignallingWindow(localDate: day, settings: subject.before, timeZone: subject.zone)
                let length = WallClock.wholeSeconds(window.end) - WallClock.wholeSeconds(window.start)
                let block = length / Self.beepsPerDay
                let onDay = beeps.filter { $0.localDate == day.description }
                    .map { WallClock.wholeSeconds($0.scheduledAt) - WallClock.wholeSeconds(window.start) }
                #expect(onDay.count == Self.beepsPerDay, "\(day) of \(subject.participant.id!)")
                let sorted = onDay.sorted()
                #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $1 - $0 >= 30 * 60 }, "the 30-minute gap on \(day)")
                guard sampling == .stratified else {
                    positions += onDay.map { Double($0) / Double(length) }
                    continue
                }
                var blocks = Set<Int>()
                for offsetSeconds in onDay {
                    let index = (0..<Self.beepsPerDay).last { $0 * length / Self.beepsPerDay <= offsetSeconds } ?? 0
                    blocks.insert(index)
                    positions.append(Double(offsetSeconds - index * length / Self.beepsPerDay) / Double(block))
                }
                #expect(blocks.count == onDay.count, "one beep per block on \(day)")
            }
        }
        #expect(positions.count > 5_000)
        #expect(positions.allSatisfy { $0 >= 0 && $0 < 1 })
        let distance = Self.kolmogorovSmirnov(positions)
        let critical = Self.criticalValue(count: positions.count, alpha: 0.001)
        #expect(distance < critical)
        // The figures BENCHMARKS.md quotes for the full-size run.
        print("protocol simulation: \(sampling.rawValue), \(subjects.count) participants, \(Int(Self.end.timeIntervalSince(Self.start) / 86_400)) days, "
            + "\(rows.count) random beeps, KS D = \(distance) over \(positions.count) beeps (critical \(critical) at α = 0.001)")
    }

    /// D = sup |Fₙ(x) − x| against the uniform distribution on [0, 1).
    static func kolmogorovSmirnov(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        let count = Double(sorted.count)
        return sorted.enumerated().reduce(0) { largest, item in
            max(largest, Double(item.offset + 1) / count - item.element, item.element - Double(item.offset) / count)
        }
    }

    /// Stephens' finite-sample critical value of D at significance `alpha`.
    static func criticalValue(count: Int, alpha: Double) -> Double {
        let root = Double(count).squareRoot()
        return (-log(alpha / 2) / 2).squareRoot() / (root + 0.12 + 0.11 / root)
    }
}
