import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// One response's page, as a researcher reads it.
@Suite("Website: a response's page")
struct ResponsePageTests {
    @Test("shows question texts, choice labels, local times with the zone and UTC, and the context in words")
    func readable() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(timeZone: "Asia/Tokyo", label: "HJKLM", on: app.db)
            let answered = try await fixture.response(
                from: alice, submittedAt: ExportFixture.march(2, 9, 30), beepSentBefore: 90, note: nil, on: app.db)
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let page = try await client.get("/studies/city-moods/responses/\(try answered.requireID().uuidString)")
            #expect(page.status == .ok)
            let html = page.body.string
            for expected in [
                "How do you feel, from 0 to 100?", "72.5", "My partner (partner); Friends (friends)", "Yes",
                "Office (51.5, -0.12)", "skipped", "not shown", "HJKLM",
                "2026-03-02 18:30 Asia/Tokyo", "2026-03-02 09:30 UTC", "51.5, -0.12 (± 30 m)",
                "average 48 dB, peak 63.5 dB", "80%", "wifi",
            ] {
                #expect(html.contains(expected), "the page shows \(expected)")
            }
            #expect(!html.contains("[&quot;partner"), "no raw JSON lists")
            #expect(html.contains("delay after the beep"), "a beep’s answer gives its delay")

            let volunteered = try await fixture.response(from: alice, submittedAt: ExportFixture.march(2, 11), on: app.db)
            let plain = try await client.get("/studies/city-moods/responses/\(try volunteered.requireID().uuidString)").body.string
            #expect(plain.contains("volunteered") && !plain.contains("delay after the beep"), "a volunteered answer has no beep to be late for")
        }
    }
}
