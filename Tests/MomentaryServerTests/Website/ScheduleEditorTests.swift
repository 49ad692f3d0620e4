import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Website schedule editor", .serialized)
struct WebsiteScheduleEditorTests {
    @Test("a valid rules document is saved and previews its next beeps; an invalid one is refused with its message")
    func schedule() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let path = "/studies/study-a/surveys/\(world.surveyA)/schedule"
            #expect(try await client.get(path).status == .ok)

            let refused = try await client.post(path, [("document", #"{"rules": [{"weekly": {"days": ["someday"], "time": "09:45"}}]}"#)])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("someday"))
            #expect(try await Schedule.query(on: app.db).count() == 0)

            let every = #"{"rules": [{"weekly": {"days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "time": "23:59"}}]}"#
            let saved = try await client.post(path, [("document", every)])
            #expect(saved.status == .seeOther)
            #expect(try await Schedule.query(on: app.db).first()?.document == every)
            let page = try await client.get(try #require(saved.headers.first(name: .location)))
            // A beep every day at 23:59 gives at least 14 in the next two weeks.
            #expect(page.body.string.components(separatedBy: " 23:59</li>").count - 1 >= 14)
            #expect(page.body.string.contains(#"<p class="notice" role="status">Schedule saved.</p>"#))

            // Participants already planned get the new fixed times at once, not from their next planned day.
            try await BeepPlanner.planNewParticipant(world.participantA, on: app.db, now: Date())
            let noon = #"{"rules": [{"weekly": {"days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "time": "12:00"}}]}"#
            #expect(try await client.post(path, [("document", noon)]).status == .seeOther)
            let fixed = try await Beep.query(on: app.db).filter(\.$participant.$id == world.participantA)
                .filter(\.$status == .pending).filter(\.$origin == .fixed).all()
            var london = Calendar(identifier: .gregorian)
            london.timeZone = TimeZone(identifier: "Europe/London")!
            #expect(!fixed.isEmpty)
            #expect(fixed.allSatisfy { london.dateComponents([.hour, .minute], from: $0.scheduledAt) == DateComponents(hour: 12, minute: 0) },
                    "the 23:59 beeps planned before are gone")
        }
    }

    @Test("a random-sampling study's schedule page states the rules, draws a sample day and counts the beeps planned")
    func randomSamplingIsShown() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            let study = world.studyA
            study.randomSampling = true
            study.minBeepsPerDay = 1; study.maxBeepsPerDay = 5; study.defaultBeepsPerDay = 3; study.minGapMinutes = 60
            study.defaultStartMinutes = 8 * 60; study.defaultEndMinutes = 22 * 60
            try await study.save(on: app.db)
            for hours in [1.0, 5.0, 30.0] {
                let beep = Beep(participantID: world.participantA, studyID: try study.requireID(), surveyID: nil, origin: .random,
                                localDate: "2026-01-01", sequence: Int(hours), scheduledAt: Date().addingTimeInterval(hours * 3600),
                                timeZone: "Europe/London", now: Date())
                try await beep.save(on: app.db)
            }
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let page = try await client.get("/studies/study-a/surveys/\(world.surveyA)/schedule").body.string
            #expect(page.contains("2 beep(s) are planned for this study's participants in the next 24 hours."))
            #expect(page.contains("1 to 5 (preset 3) beeps a day"))
            #expect(page.contains("at least 60 minutes apart"))
            let sample = try #require(page.components(separatedBy: "A sample day").last?.components(separatedBy: "</ul>").first)
            #expect(sample.components(separatedBy: "<li>").count - 1 == 3, "three beeps on the sample day")
            #expect(!page.contains("None in the next two weeks."))
        }
    }
}
