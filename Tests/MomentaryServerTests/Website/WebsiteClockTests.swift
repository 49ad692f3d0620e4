import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The website reads the time from the application's clock, so a test that sets the clock sets
/// what every page and session sees. Each test here would fail on the wall clock.
@Suite("Website on a manual clock", .serialized)
struct WebsiteClockTests {
    /// Monday 3 March 2031, 10:00 UTC: far from the wall clock, so a page that read `Date()` shows.
    static let monday = Date(timeIntervalSince1970: 1_930_298_400)

    @Test("a session stays while used within a day, ends a day after its last use, and ends a week after sign-in however used")
    func sessionLifetimesFollowTheClock() async throws {
        let clock = ManualTimeSource(now: Self.monday)
        try await withTestApp(timeSource: clock) { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            #expect(try await client.get("/studies").status == .ok)

            // Used once a day, just inside the idle limit: still signed in after seven such days.
            for _ in 1...7 {
                clock.advance(by: WebSession.idleLifetime - 60)
                #expect(try await client.get("/studies").status == .ok)
            }
            // A minute past the week since sign-in, though last used only minutes ago.
            clock.advance(by: WebSession.lifetime - 7 * (WebSession.idleLifetime - 60) + 60)
            #expect(try await client.get("/studies").headers.first(name: .location) == "/signin")

            var idle = WebClient(app)
            _ = try await idle.signIn(WebsiteWorld.developer)
            clock.advance(by: WebSession.idleLifetime + 60)
            #expect(try await idle.get("/studies").headers.first(name: .location) == "/signin")
        }
    }

    @Test("the schedule page previews beeps from the clock's today and counts the beeps planned in the clock's next 24 hours")
    func schedulePreviewFollowsTheClock() async throws {
        let clock = ManualTimeSource(now: Self.monday)
        try await withTestApp(timeSource: clock) { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            world.studyA.defaultTimeZone = "UTC"
            try await world.studyA.save(on: app.db)
            let soon = Beep(participantID: world.participantA, studyID: try world.studyA.requireID(), surveyID: nil, origin: .random,
                            localDate: "2031-03-03", sequence: 1, scheduledAt: Self.monday.addingTimeInterval(3_600),
                            timeZone: "UTC", now: Self.monday)
            try await soon.save(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let path = "/studies/study-a/surveys/\(world.surveyA)/schedule"
            // Before the rules below replan the study, the one beep planned in the clock's next day.
            let before = try await client.get(path)
            #expect(before.status == .ok)
            #expect(before.body.string.contains("1 beep(s) are planned for this study's participants in the next 24 hours."))
            let mondays = #"{"rules": [{"weekly": {"days": ["mon"], "time": "09:00"}}]}"#
            #expect(try await client.post(path, [("document", mondays)]).status == .seeOther)

            let page = try await client.get(path).body.string
            // Today's 09:00 has passed by the clock's 10:00, so the preview starts a week on.
            #expect(!page.contains("<li>Mon 2031-03-03 09:00</li>"))
            #expect(page.contains("<li>Mon 2031-03-10 09:00</li>"))
            #expect(page.contains("<li>Mon 2031-03-17 09:00</li>"))
        }
    }
}
