import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The study's first page: participants, beeps over three periods, the chart, quiet participants
/// and signalling health.
@Suite("Website: the study overview")
struct StudyOverviewTests {
    @Test("counts participants by status, beeps by fate today and over 7 and 28 days, quiet people and failed beeps")
    func figures() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(label: "AAAAA", on: app.db)
            let bob = try await fixture.participant(label: "BBBBB", on: app.db)
            let carol = try await fixture.participant(label: "CCCCC", on: app.db)
            let participant = try #require(try await Participant.find(carol, on: app.db))
            participant.status = .withdrawn
            try await participant.save(on: app.db)

            let now = Date()
            // Alice answered a beep an hour ago; Bob missed one ten days ago; a beep to Bob was
            // rejected by the push service two days ago.
            try await fixture.response(from: alice, submittedAt: now.addingTimeInterval(-3600), beepSentBefore: 60, on: app.db)
            let missed = try await ExportAnalysisTests.beep(
                for: bob, in: fixture, at: now.addingTimeInterval(-10 * 86_400), status: .missed, on: app.db)
            let rejected = try await ExportAnalysisTests.beep(
                for: bob, in: fixture, at: now.addingTimeInterval(-2 * 86_400), status: .failed, on: app.db)
            let failed = try #require(try await Beep.find(rejected, on: app.db))
            failed.deliveryOutcome = "rejected"
            failed.sentAt = nil
            try await failed.save(on: app.db)
            _ = missed

            let overview = try await StudyOverview.build(study: fixture.study, on: app.db, now: now)
            #expect(overview.participantsByStatus.map(\.count) == [2, 0, 1], "participating, restricted, withdrawn")
            let week = try #require(overview.periods.first { $0.name == "Last 7 days" })
            #expect((week.sent, week.answered, week.missed, week.failed, week.rate) == (1, 1, 0, 1, "100%"))
            let month = try #require(overview.periods.first { $0.name == "Last 28 days" })
            #expect((month.sent, month.answered, month.missed, month.failed, month.rate) == (1, 1, 1, 1, "100%"))
            #expect(overview.quiet == 1, "Bob, participating, has not answered in three days")
            #expect(overview.failures.map(\.name) == ["rejected"] && overview.failures.map(\.count) == [1])
            #expect(overview.withoutChannel == 2, "the fixture's participants have no push channel")
            #expect(overview.lastSent != nil)

            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let page = try await client.get("/studies/city-moods")
            #expect(page.status == .ok)
            let html = page.body.string
            for expected in ["Participating: <strong>2</strong>", "Withdrawn: <strong>1</strong>",
                             "1 participating with no answer in 3 days", "rejected 1", "2 participating without a push channel",
                             "<th scope=\"row\">Last 28 days</th><td>1</td><td>1</td><td>0</td><td>1</td><td>1</td><td>100%</td>"] {
                #expect(html.contains(expected), "the overview shows \(expected)")
            }
        }
    }
}
