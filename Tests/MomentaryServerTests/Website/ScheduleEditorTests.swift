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
        }
    }
}
