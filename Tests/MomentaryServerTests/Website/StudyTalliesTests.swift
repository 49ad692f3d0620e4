import Fluent
import Foundation
@testable import MomentaryServer
import SQLKit
import Testing

/// The counts the overview and participants page read (migration M025's triggers, folded by
/// `StudyTallies.compact`) must equal counting the beeps and responses themselves, after any kind
/// of change, folded or not, and with writers and folds running at once.
@Suite("Study tallies: kept counts equal counting the rows")
struct StudyTalliesTests {
    @Test("inserts, status changes, bulk updates, cascades and study deletion are all counted, before and after folding")
    func exact() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let other = try await ExportFixture.make(slug: "other-study", on: app.db)
            let studyID = try fixture.study.requireID()
            let alice = try await fixture.participant(label: "AAAAA", on: app.db)
            let bob = try await fixture.participant(label: "BBBBB", on: app.db)
            let stranger = try await other.participant(label: "CCCCC", on: app.db)
            let now = Date()
            for day in 0..<3 {
                for (person, status) in [(alice, Beep.Status.sent), (bob, .pending), (bob, .missed)] {
                    _ = try await ExportAnalysisTests.beep(
                        for: person, in: fixture, at: now.addingTimeInterval(-Double(day) * 86_400), status: status, on: app.db)
                }
            }
            _ = try await ExportAnalysisTests.beep(for: stranger, in: other, at: now, status: .sent, on: app.db)
            try await fixture.response(from: alice, submittedAt: now, beepSentBefore: 30, on: app.db)
            try await fixture.response(from: bob, submittedAt: now, on: app.db)
            try await expectExact(studyID, on: app.db, "after inserts")

            // One beep through Fluent, then a statement that changes several at once.
            let beep = try #require(try await Beep.query(on: app.db).filter(\.$participant.$id == alice).first())
            beep.status = .answered
            try await beep.save(on: app.db)
            let sql = app.db.sql
            try await sql.raw("UPDATE beeps SET status = 'ignored' WHERE status = 'sent'").run()
            try await sql.raw("UPDATE beeps SET claimed_by = 'nobody'").run()
            try await expectExact(studyID, on: app.db, "after updates")

            // In parts of three, as a backlog is folded in parts of `foldSize`.
            let waiting = try await changesLeft(on: app.db)
            #expect(waiting > 6)
            #expect(try await StudyTallies.compact(on: app.db, partSize: 3) == waiting)
            #expect(try await changesLeft(on: app.db) == 0, "a fold leaves no change behind")
            try await expectExact(studyID, on: app.db, "after folding")

            // Bob's beeps and response go with him (a cascade); the other study, once its
            // participant has gone (studies with participants cannot be deleted), with all it had.
            try await #require(try await Participant.find(bob, on: app.db)).delete(on: app.db)
            try await expectExact(studyID, on: app.db, "after a cascade, not folded")
            try await #require(try await Participant.find(stranger, on: app.db)).delete(on: app.db)
            try await other.study.delete(on: app.db)
            try await StudyTallies.compact(on: app.db)
            try await expectExact(studyID, on: app.db, "after a cascade, folded")
            let orphans = try await sql.raw("""
                SELECT (SELECT COUNT(*) FROM study_tallies WHERE study_id = \(bind: try other.study.requireID()))
                     + (SELECT COUNT(*) FROM study_tally_changes) AS n
                """).first(decoding: CountRow.self)?.n
            #expect(orphans == 0, "a deleted study's counts and changes are gone after a fold")
        }
    }

    @Test("writers changing beeps while folds run: no change lost or counted twice")
    func concurrentFolds() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let studyID = try fixture.study.requireID()
            var people: [UUID] = []
            for index in 0..<4 {
                people.append(try await fixture.participant(label: "P000\(index)", on: app.db))
            }
            let db = app.db
            try await withThrowingTaskGroup(of: Void.self) { group in
                for person in people {
                    group.addTask {
                        for step in 0..<15 {
                            let id = try await ExportAnalysisTests.beep(
                                for: person, in: fixture, at: Date().addingTimeInterval(-Double(step) * 40_000), status: .sent, on: db)
                            if step.isMultiple(of: 2), let beep = try await Beep.find(id, on: db) {
                                beep.status = .answered
                                try await beep.save(on: db)
                            }
                        }
                    }
                }
                for _ in 0..<2 {
                    group.addTask {
                        for _ in 0..<10 {
                            try await StudyTallies.compact(on: db, partSize: 4)
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await expectExact(studyID, on: app.db, "after concurrent writes and folds")
            try await StudyTallies.compact(on: app.db)
            try await expectExact(studyID, on: app.db, "after the last fold")
            let answered = try await StudyTallies.byStatus(studyID: studyID, subject: .beeps, on: app.db.sql)
            #expect(answered.first { $0.status == "answered" }?.n == 32 && answered.first { $0.status == "sent" }?.n == 28)
        }
    }

    @Test("the migration counts the beeps and responses that exist when it runs")
    func backfill() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let studyID = try fixture.study.requireID()
            try await M025_CreateStudyTallies().revert(on: app.db)
            let alice = try await fixture.participant(label: "AAAAA", on: app.db)
            for status in [Beep.Status.sent, .answered, .missed, .answered] {
                _ = try await ExportAnalysisTests.beep(for: alice, in: fixture, at: Date(), status: status, on: app.db)
            }
            try await fixture.response(from: alice, submittedAt: Date(), on: app.db)
            try await M025_CreateStudyTallies().prepare(on: app.db)
            try await expectExact(studyID, on: app.db, "after migrating")
            _ = try await ExportAnalysisTests.beep(for: alice, in: fixture, at: Date(), status: .sent, on: app.db)
            try await expectExact(studyID, on: app.db, "and counting from then on")
        }
    }

    private func changesLeft(on db: any Database) async throws -> Int {
        try await db.sql.raw("SELECT COUNT(*) AS n FROM study_tally_changes").first(decoding: CountRow.self)?.n ?? -1
    }

    /// The kept counts of beeps (by day and status) and responses (by kind) against the rows.
    private func expectExact(_ studyID: UUID, on db: any Database, _ when: Comment) async throws {
        let sql = db.sql
        let beeps = try await sql.raw("""
            SELECT local_date AS day, status, COUNT(*) AS n FROM beeps WHERE study_id = \(bind: studyID) GROUP BY local_date, status
            """).all(decoding: StudyTallies.Count.self)
        let responses = try await sql.raw("""
            SELECT '' AS day, kind AS status, COUNT(*) AS n FROM responses WHERE study_id = \(bind: studyID) GROUP BY kind
            """).all(decoding: StudyTallies.Count.self)
        let keptBeeps = try await StudyTallies.counts(studyID: studyID, subject: .beeps, on: sql)
        let keptResponses = try await StudyTallies.counts(studyID: studyID, subject: .responses, on: sql)
        #expect(Self.keyed(keptBeeps) == Self.keyed(beeps), when)
        #expect(Self.keyed(keptResponses) == Self.keyed(responses), when)
        #expect(!beeps.isEmpty)
    }

    private static func keyed(_ counts: [StudyTallies.Count]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.map { ("\($0.day) \($0.status)", $0.n) })
    }
}
