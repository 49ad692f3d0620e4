import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The responses list: filters, order, pages and local times.
@Suite("Website: the responses list")
struct ResponseListTests {
    @Test("filters by participant label, days and beep or volunteered; sorts; pages keep the filters; times are local")
    func filters() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(timeZone: "America/New_York", label: "ALICE", on: app.db)
            let bob = try await fixture.participant(label: "BOBBY", on: app.db)
            // Alice answers a beep on each of 1–3 March at 09:30 UTC; Bob volunteers 52 times on 4 March.
            for day in 1...3 {
                try await fixture.response(from: alice, submittedAt: ExportFixture.march(day, 9, 30), beepSentBefore: 60, on: app.db)
            }
            for minute in 0..<52 {
                try await fixture.response(from: bob, submittedAt: ExportFixture.march(4, 8, minute), on: app.db)
            }
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let base = "/studies/city-moods/responses"

            let all = try await client.get(base).body.string
            #expect(all.contains("55 responses · page 1 of 2"))
            let second = try await client.get(base + "?page=2").body.string
            #expect(second.contains("2026-03-01 04:30 America/New_York"), "the oldest, on the last page, in Alice's zone")
            // 50 a page and 5 on the second: each response once (a page once showed 51, the last
            // of each page again at the top of the next).
            let rows = { (page: String) in page.components(separatedBy: "/studies/city-moods/responses/").count - 1 }
            #expect(rows(all) == 50 && rows(second) == 5, "pages of \(rows(all)) and \(rows(second))")

            let alices = try await client.get(base + "?participant=alice").body.string
            #expect(alices.contains("3 of 55 responses match") && !alices.contains("BOBBY"))
            #expect(alices.contains("title=\"2026-03-02 09:30 UTC\""))
            let oldest = try await client.get(base + "?participant=ALICE&order=oldest").body.string
            let first = try #require(oldest.range(of: "2026-03-01 04:30"))
            let third = try #require(oldest.range(of: "2026-03-03 04:30"))
            #expect(first.lowerBound < third.lowerBound, "oldest first")

            let days = try await client.get(base + "?from=2026-03-02&to=2026-03-03").body.string
            #expect(days.contains("2 of 55 responses match"))
            let beeps = try await client.get(base + "?kind=beep").body.string
            #expect(beeps.contains("3 of 55 responses match"))
            let volunteered = try await client.get(base + "?kind=volunteered").body.string
            #expect(volunteered.contains("52 of 55 responses match") && volunteered.contains("page 1 of 2"))
            #expect(volunteered.contains("kind=volunteered"), "the next page keeps the filter")

            let badDate = try await client.get(base + "?from=2026-02-30")
            #expect(badDate.status == .badRequest && badDate.body.string.contains("is not a date"))
            let stranger = try await client.get(base + "?participant=ZZZZZ")
            #expect(stranger.status == .badRequest && stranger.body.string.contains("No participant of this study has the label"))
        }
    }
}
