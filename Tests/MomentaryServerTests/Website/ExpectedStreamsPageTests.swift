import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

@Suite("Website expected streams", .serialized)
struct ExpectedStreamsPageTests {
    @Test("the study names the streams it expects; the overview shows them; an unknown stream is refused and nothing stored")
    func expectedStreams() async throws {
        try await withTestApp { app, _ in
            let world = try await WebsiteWorld.make(on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let page = try await client.get("/studies/study-a/streams")
            #expect(page.status == .ok)
            #expect(page.body.string.contains(#"value="power_state""#))
            #expect(!page.body.string.contains(#"value="survey_answers""#), "survey streams are not passive data")

            let refused = try await client.post("/studies/study-a/streams", [("streams[]", "gps"), ("streams[]", "wifi")])
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("“wifi” is not a passive stream Momentary records"))
            #expect(try await Study.find(world.studyA.id, on: app.db)?.expectedStreamsJSON == nil)

            let saved = try await client.post("/studies/study-a/streams", [("streams[]", "gyro"), ("streams[]", "gps")])
            #expect(saved.status == .seeOther)
            #expect(try await Study.find(world.studyA.id, on: app.db)?.expectedStreams == [.gps, .gyro])
            let overview = try await client.get("/studies/study-a").body.string
            #expect(overview.contains("Passive data expected from participants' phones: gps, gyro"))

            #expect(try await client.post("/studies/study-a/streams", []).status == .seeOther)
            #expect(try await Study.find(world.studyA.id, on: app.db)?.expectedStreams == [])
        }
    }
}
