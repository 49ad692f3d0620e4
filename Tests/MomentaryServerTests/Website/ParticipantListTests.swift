import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

/// The participants page of a large study: pages, label search, status and quiet filters.
@Suite("Website: the participants list")
struct ParticipantListTests {
    @Test("lists 50 a page with working page links, searches labels, filters by status and by days without an answer")
    func pagesAndFilters() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let fixture = try await ExportFixture.make(on: app.db)
            var ids: [UUID] = []
            for index in 0..<120 {
                let id = try await fixture.participant(label: String(format: "Q%04d", index), on: app.db)
                // Registered a minute apart, so registration order is label order.
                let participant = try #require(try await Participant.find(id, on: app.db))
                participant.registeredAt = participant.registeredAt.addingTimeInterval(Double(index) * 60)
                try await participant.save(on: app.db)
                ids.append(id)
            }
            // Ten withdrawn; the first five answered today, so only they are not quiet.
            for id in ids.suffix(10) {
                let participant = try #require(try await Participant.find(id, on: app.db))
                participant.status = .withdrawn
                try await participant.save(on: app.db)
            }
            for id in ids.prefix(5) {
                try await fixture.response(from: id, submittedAt: Date().addingTimeInterval(-3600), beepSentBefore: 60, on: app.db)
            }
            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)

            let first = try await client.get("/studies/city-moods/participants").body.string
            #expect(first.contains("120 participant(s) · page 1 of 3"))
            #expect(first.contains(">Q0000<") && first.contains(">Q0049<") && !first.contains(">Q0050<"), "the first 50 in registration order")
            #expect(first.contains("/studies/city-moods/participants?page=2"))
            let third = try await client.get("/studies/city-moods/participants?page=3").body.string
            #expect(third.contains(">Q0119<") && !third.contains(">Q0099<") && third.contains("page 3 of 3"))
            #expect(third.contains("page=2") && !third.contains("page=4"))
            let beyond = try await client.get("/studies/city-moods/participants?page=99").body.string
            #expect(beyond.contains(">Q0119<") && beyond.contains("page 3 of 3"), "a page beyond the last lists the last")

            let search = try await client.get("/studies/city-moods/participants?q=q011").body.string
            #expect(search.contains("10 participant(s) match"), "labels Q0110…Q0119, any case")
            let withdrawn = try await client.get("/studies/city-moods/participants?status=withdrawn").body.string
            #expect(withdrawn.contains("10 participant(s) match") && withdrawn.contains(">Q0110<"))
            let quiet = try await client.get("/studies/city-moods/participants?quiet=2").body.string
            #expect(quiet.contains("105 participant(s) match"), "participating, without an answer in two days")
            #expect(!quiet.contains(">Q0000<") && quiet.contains(">Q0005<"))
            let combined = try await client.get("/studies/city-moods/participants?q=Q000&quiet=2&page=1").body.string
            #expect(combined.contains("5 participant(s) match"), "Q0005…Q0009")
            let byID = try await client.get("/studies/city-moods/participants?q=\(ids[7].uuidString)").body.string
            #expect(byID.contains("1 participant(s) match") && byID.contains(">Q0007<"))
            let answered = try #require(first.range(of: ">Q0000<"))
            // The rest of the participant's row (its cell also links their messages).
            let row = first[answered.upperBound...].prefix { $0 != "\n" }
            #expect(row.contains("<td>Participating</td><td>1</td><td>1</td>"), "one beep sent and answered")

            for bad in ["page=0", "page=x", "quiet=0", "quiet=1000", "status=asleep"] {
                let response = try await client.get("/studies/city-moods/participants?\(bad)")
                #expect(response.status == .badRequest, "\(bad)")
            }
        }
    }

    @Test("“no answer in N days” follows each participant's latest answer, kept by the database, including when answers are deleted")
    func lastAnswer() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let studyID = try fixture.study.requireID()
            let sql = app.db.sql
            let alice = try await fixture.participant(label: "AAAAA", on: app.db)
            let bob = try await fixture.participant(label: "BBBBB", on: app.db)
            var quietQuery = ParticipantListQuery()
            quietQuery.quietDays = 3
            let quiet = { try await ComplianceReport.matchingCount(studyID: studyID, query: quietQuery, sql: sql, now: Date()) }
            let now = Date()
            #expect(try await quiet() == 2, "no answers yet")

            try await fixture.response(from: alice, submittedAt: now.addingTimeInterval(-5 * 86_400), on: app.db)
            let recent = try await fixture.response(from: bob, submittedAt: now.addingTimeInterval(-3600), on: app.db)
            #expect(try await quiet() == 1, "Alice last answered five days ago")
            try await fixture.response(from: alice, submittedAt: now.addingTimeInterval(-60), on: app.db)
            // An older answer arriving late (an offline phone) does not move Bob's latest back.
            try await fixture.response(from: bob, submittedAt: now.addingTimeInterval(-10 * 86_400), on: app.db)
            #expect(try await quiet() == 0)

            try await recent.delete(on: app.db)
            #expect(try await quiet() == 1, "with his recent answer gone, Bob's latest is ten days old")
        }
    }

    @Test("answers stored in one statement move each participant's latest answer to their newest; deleting several recounts each")
    func lastAnswerOfABatch() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let (alice, bob, carol) = (
                try await fixture.participant(label: "AAAAA", on: app.db), try await fixture.participant(label: "BBBBB", on: app.db),
                try await fixture.participant(label: "CCCCC", on: app.db))
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            func record(_ participant: UUID, hoursAgo: Double, kind: Survey.Kind = .esm) throws -> ResponseRows.Record {
                let submittedAt = now.addingTimeInterval(-hoursAgo * 3600)
                let draft = ResponseRows.Draft(
                    participantID: participant, studyID: try fixture.study.requireID(), surveyID: try fixture.survey.requireID(),
                    surveyVersion: 1, kind: kind, beepID: nil, volunteered: true, idempotencyKey: UUID().uuidString,
                    startedAt: submittedAt, submittedAt: submittedAt, receivedAt: now, timeZone: "Europe/London")
                return ResponseRows.Record(draft: draft, answers: ExportFixture.answers(note: nil), context: nil)
            }
            let sql = app.db.sql
            struct Row: Decodable { let id: UUID; let last_answered_at: Date? }
            let latest = {
                Dictionary(uniqueKeysWithValues: try await sql.raw("SELECT id, last_answered_at FROM participants")
                    .all(decoding: Row.self).map { ($0.id, $0.last_answered_at) })
            }

            // Alice's newest is in the middle of the batch; Carol's only answer is her registration.
            let ids = try await ResponseRows.insert([
                try record(alice, hoursAgo: 30), try record(alice, hoursAgo: 1), try record(bob, hoursAgo: 5),
                try record(alice, hoursAgo: 9), try record(carol, hoursAgo: 2, kind: .registration),
            ], on: SQLKitStatementRunner(app.db.sql))
            var times = try await latest()
            #expect(times[alice] == now.addingTimeInterval(-3600))
            #expect(times[bob] == now.addingTimeInterval(-5 * 3600))
            #expect(times[carol] == .some(nil), "a registration answer is not an experience-sampling answer")

            try await sql.raw("DELETE FROM responses WHERE id IN (\(bind: ids[1]), \(bind: ids[2]), \(bind: ids[3]))").run()
            times = try await latest()
            #expect(times[alice] == now.addingTimeInterval(-30 * 3600), "her latest left")
            #expect(times[bob] == .some(nil), "no answer left")
        }
    }
}
