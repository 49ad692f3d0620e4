import Fluent
import Foundation
@testable import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Signalling: planner")
struct BeepPlannerTests {
    static let london = "Europe/London"

    @Test("a participant registering mid-window gets the pro-rata remainder of today and all of tomorrow")
    func newParticipantMidWindow() async throws {
        try await withTestApp { app, _ in
            let now = instant("2026-06-10", "18:00", in: Self.london)
            let fixture = try await SignallingFixture.make(on: app.db, now: now)
            var random = BeepRandomness.seeded(1)
            var todayCounts = [Int]()
            for _ in 0..<100 {
                let participant = try await fixture.participant(on: app.db, now: now, beepsPerDay: 4)
                try await BeepPlanner.planNewParticipant(participant.requireID(), on: app.db, now: now, using: &random)
                let planned = try await beeps(of: participant, on: app.db)
                let today = planned.filter { $0.localDate == "2026-06-10" }
                let tomorrow = planned.filter { $0.localDate == "2026-06-11" }
                #expect(today.count + tomorrow.count == planned.count)
                #expect(today.allSatisfy { $0.scheduledAt > now && $0.scheduledAt < instant("2026-06-10", "21:50", in: Self.london) })
                #expect(tomorrow.count == 4)
                #expect(tomorrow.allSatisfy {
                    $0.scheduledAt >= instant("2026-06-11", "08:00", in: Self.london)
                        && $0.scheduledAt < instant("2026-06-11", "21:50", in: Self.london)
                })
                for day in [today, tomorrow] {
                    for (earlier, later) in zip(day, day.dropFirst()) {
                        #expect(later.scheduledAt.timeIntervalSince(earlier.scheduledAt) >= 3600)
                    }
                }
                #expect(planned.allSatisfy { $0.status == .pending && $0.origin == .random })
                todayCounts.append(today.count)
                let stored = try #require(try await Participant.find(participant.requireID(), on: app.db))
                #expect(stored.plannedThrough == "2026-06-11")
                #expect(try await nextPlanAt(of: participant, on: app.db) == instant("2026-06-10", "22:00", in: Self.london))
            }
            // 3 h 50 min of the 13 h 50 min window remain: 4 × 230/830 ≈ 1.108 beeps are due,
            // so 1 certainly and a second about one time in nine.
            let due = 4.0 * 230 / 830
            #expect(todayCounts.allSatisfy { $0 == 1 || $0 == 2 })
            let mean = Double(todayCounts.reduce(0, +)) / Double(todayCounts.count)
            #expect(abs(mean - due) < 0.15, "mean \(mean), expected about \(due)")
        }
    }

    @Test("planning again plans nothing more; each ended day adds exactly the next one")
    func planningIsIdempotent() async throws {
        try await withTestApp { app, _ in
            let now = instant("2026-06-10", "07:00", in: Self.london)
            let fixture = try await SignallingFixture.make(on: app.db, now: now)
            let participant = try await fixture.participant(on: app.db, now: now, beepsPerDay: 2)
            let id = try participant.requireID()
            var random = BeepRandomness.seeded(2)
            try await BeepPlanner.planNewParticipant(id, on: app.db, now: now, using: &random)
            let first = try await beeps(of: participant, on: app.db)
            #expect(first.count == 4)
            try await BeepPlanner.planNewParticipant(id, on: app.db, now: now, using: &random)
            #expect(try await BeepPlanner.planDueDays(on: app.db, now: now, using: &random) == 0)
            #expect(try await beeps(of: participant, on: app.db).map(\.id) == first.map(\.id))

            let afterDayEnd = instant("2026-06-10", "22:01", in: Self.london)
            #expect(try await BeepPlanner.planDueDays(on: app.db, now: afterDayEnd, using: &random) == 1)
            let second = try await beeps(of: participant, on: app.db)
            #expect(second.count == 6)
            #expect(second.filter { $0.localDate == "2026-06-12" }.count == 2)
            #expect(try await BeepPlanner.planDueDays(on: app.db, now: afterDayEnd, using: &random) == 0)
            try await BeepPlanner.planNewParticipant(id, on: app.db, now: afterDayEnd, using: &random)
            #expect(try await beeps(of: participant, on: app.db).count == 6)
            let stored = try #require(try await Participant.find(id, on: app.db))
            #expect(stored.plannedThrough == "2026-06-12")

            // The database refuses a second beep in the same (participant, origin, day, sequence) slot.
            let duplicate = Beep(
                participantID: id, studyID: try fixture.study.requireID(), surveyID: nil, origin: .random,
                localDate: "2026-06-12", sequence: 0, scheduledAt: afterDayEnd, timeZone: "Europe/London", now: afterDayEnd)
            await #expect(throws: (any Error).self) { try await duplicate.save(on: app.db) }
        }
    }

    @Test("a settings change cancels the pending beeps after now and replans the rest of today and tomorrow")
    func settingsChangeReplans() async throws {
        try await withTestApp { app, _ in
            let morning = instant("2026-06-10", "07:00", in: Self.london)
            let fixture = try await SignallingFixture.make(on: app.db, now: morning)
            let participant = try await fixture.participant(on: app.db, now: morning, beepsPerDay: 3)
            let id = try participant.requireID()
            var random = BeepRandomness.seeded(3)
            try await BeepPlanner.planNewParticipant(id, on: app.db, now: morning, using: &random)
            let before = try await beeps(of: participant, on: app.db)
            #expect(before.count == 6)

            let noon = instant("2026-06-10", "12:00", in: Self.london)
            participant.beepsPerDay = 1
            participant.signalStartMinutes = try minutes("18:00")
            participant.signalEndMinutes = try minutes("23:00")
            try await participant.save(on: app.db)
            try await BeepPlanner.settingsChanged(id, on: app.db, now: noon, using: &random)

            let after = try await beeps(of: participant, on: app.db)
            for old in before {
                let now = try #require(after.first { $0.id == old.id })
                #expect(now.status == (old.scheduledAt > noon ? .cancelled : .pending))
            }
            let fresh = after.filter { !before.map(\.id).contains($0.id) }
            #expect(fresh.allSatisfy { $0.status == .pending })
            for (day, next) in [("2026-06-10", "2026-06-10"), ("2026-06-11", "2026-06-11")] {
                let planned = fresh.filter { $0.localDate == day }
                #expect(planned.count == 1, "\(day)")
                #expect(planned.allSatisfy {
                    $0.scheduledAt >= instant(next, "18:00", in: Self.london)
                        && $0.scheduledAt < instant(next, "22:50", in: Self.london)
                })
            }
            #expect(try await nextPlanAt(of: participant, on: app.db) == instant("2026-06-10", "23:00", in: Self.london))
        }
    }

    @Test("fixed rules are planned at their wall-clock times in each participant's own zone")
    func fixedRulesInParticipantZone() async throws {
        try await withTestApp { app, _ in
            let rules = #"{"rules": [{"weekly": {"days": ["mon","tue","wed","thu","fri","sat","sun"], "time": "09:30"}}, {"relative": {"day": 1, "time": "17:16"}}]}"#
            let now = try #require(ISO8601DateFormatter().date(from: "2026-06-10T02:00:00Z"))
            let fixture = try await SignallingFixture.make(on: app.db, now: now, randomSampling: false, fixedRules: rules)
            let tokyo = try await fixture.participant(on: app.db, now: now, zone: "Asia/Tokyo")
            let angeles = try await fixture.participant(on: app.db, now: now, zone: "America/Los_Angeles")
            for participant in [tokyo, angeles] {
                try await BeepPlanner.planNewParticipant(participant.requireID(), on: app.db, now: now)
            }
            // Tokyo: 11:00 on 10 June, so today's 09:30 has passed; registered on the 10th.
            let tokyoBeeps = try await beeps(of: tokyo, on: app.db)
            #expect(tokyoBeeps.map(\.scheduledAt) == [
                instant("2026-06-11", "09:30", in: "Asia/Tokyo"), instant("2026-06-11", "17:16", in: "Asia/Tokyo"),
            ])
            // Los Angeles: 19:00 on 9 June; registered on the 9th, so day 1 is the 10th.
            let angelesBeeps = try await beeps(of: angeles, on: app.db)
            #expect(angelesBeeps.map(\.scheduledAt) == [
                instant("2026-06-10", "09:30", in: "America/Los_Angeles"), instant("2026-06-10", "17:16", in: "America/Los_Angeles"),
            ])
            for beep in tokyoBeeps + angelesBeeps {
                #expect(beep.origin == .fixed)
                #expect(beep.$survey.id == fixture.survey.id)
            }
        }
    }

    @Test("in a device-scheduled study, a web participant is beeped by the server: a browser cannot schedule notifications")
    func webParticipantsOfDeviceScheduledStudiesArePlanned() async throws {
        try await withTestApp { app, _ in
            let now = instant("2026-06-10", "07:00", in: Self.london)
            let device = try await SignallingFixture.make(on: app.db, now: now, scheduling: .device)
            let browser = try await device.participant(on: app.db, now: now, channel: "webpush")
            let phone = try await device.participant(on: app.db, now: now, channel: "apns")
            try await BeepPlanner.planNewParticipant(browser.requireID(), on: app.db, now: now)
            try await BeepPlanner.planNewParticipant(phone.requireID(), on: app.db, now: now)
            #expect(try await beeps(of: browser, on: app.db).count == 4, "today and tomorrow, twice a day")
            #expect(try await beeps(of: phone, on: app.db).isEmpty, "the phone app schedules its own")
        }
    }

    @Test("withdrawn, restricted and inactive participants, and device-scheduled studies, get no beeps")
    func nobodyWhoShouldNotBeBeepedIsPlanned() async throws {
        try await withTestApp { app, _ in
            let now = instant("2026-06-10", "07:00", in: Self.london)
            let fixture = try await SignallingFixture.make(on: app.db, now: now)
            let device = try await SignallingFixture.make(on: app.db, now: now, scheduling: .device)
            let excluded = [
                try await fixture.participant(on: app.db, now: now, status: .withdrawn),
                try await fixture.participant(on: app.db, now: now, status: .restricted),
                try await fixture.participant(on: app.db, now: now, active: false),
                try await device.participant(on: app.db, now: now),
            ]
            for participant in excluded {
                try await BeepPlanner.planNewParticipant(participant.requireID(), on: app.db, now: now)
                #expect(try await beeps(of: participant, on: app.db).isEmpty)
                #expect(try await nextPlanAt(of: participant, on: app.db) == nil)
            }

            // Withdrawing cancels everything pending and stops the daily planning.
            let leaving = try await fixture.participant(on: app.db, now: now)
            try await BeepPlanner.planNewParticipant(leaving.requireID(), on: app.db, now: now)
            #expect(try await beeps(of: leaving, on: app.db).count == 4)
            leaving.status = .withdrawn
            try await leaving.save(on: app.db)
            try await BeepPlanner.cancelPendingBeeps(of: leaving.requireID(), on: app.db, now: now)
            #expect(try await beeps(of: leaving, on: app.db).allSatisfy { $0.status == .cancelled })
            let nextWeek = instant("2026-06-17", "12:00", in: Self.london)
            #expect(try await BeepPlanner.planDueDays(on: app.db, now: nextWeek) == 0)
            #expect(try await beeps(of: leaving, on: app.db).allSatisfy { $0.status == .cancelled })
        }
    }

    @Test("a study that has ended plans nothing more: not after its last day, nor after each participant's days; the app says so")
    func studyEnd() async throws {
        try await withTestApp { app, _ in
            let now = instant("2026-06-10", "07:00", in: Self.london)
            let fixture = try await SignallingFixture.make(on: app.db, now: now, defaultTimeZone: Self.london)
            func days(of participant: Participant) async throws -> Set<String> {
                Set(try await beeps(of: participant, on: app.db).map(\.localDate))
            }

            fixture.study.endsOn = "2026-06-10"
            try await fixture.study.save(on: app.db)
            let lastDay = try await fixture.participant(on: app.db, now: now, zone: Self.london)
            try await BeepPlanner.planNewParticipant(lastDay.requireID(), on: app.db, now: now)
            #expect(try await days(of: lastDay) == ["2026-06-10"], "today, the last day, but not tomorrow")

            fixture.study.endsOn = "2026-06-09"
            try await fixture.study.save(on: app.db)
            let late = try await fixture.participant(on: app.db, now: now, zone: Self.london)
            try await BeepPlanner.planNewParticipant(late.requireID(), on: app.db, now: now)
            #expect(try await beeps(of: late, on: app.db).isEmpty)
            #expect(try await nextPlanAt(of: late, on: app.db) == nil, "planning stops for good")

            fixture.study.endsOn = nil
            fixture.study.endsAfterDays = 2
            try await fixture.study.save(on: app.db)
            let twoDays = try await fixture.participant(on: app.db, now: now, zone: Self.london)
            try await BeepPlanner.planNewParticipant(twoDays.requireID(), on: app.db, now: now)
            let third = instant("2026-06-12", "07:00", in: Self.london)
            _ = try await BeepPlanner.planDueDays(on: app.db, now: instant("2026-06-11", "23:00", in: Self.london))
            _ = try await BeepPlanner.planDueDays(on: app.db, now: third)
            #expect(try await days(of: twoDays) == ["2026-06-10", "2026-06-11"], "the day of joining and the next")

            let status = try await ParticipantStatusService.status(of: twoDays, on: app.db, now: third)
            #expect(status.message == ParticipantStatusService.studyOverMessage(language: "en"))
            let during = try await ParticipantStatusService.status(of: twoDays, on: app.db, now: now)
            #expect(during.message != ParticipantStatusService.studyOverMessage(language: "en"))
        }
    }
}
