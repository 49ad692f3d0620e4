import Fluent
import Foundation
@testable import MomentaryServer
import SQLKit
import Testing

/// `BeepLifecycle` is the one owner of a beep's status: every legal change goes through, every
/// other is refused by the database statement itself, and docs/beeps.md lists the same edges.
@Suite("A beep's life: the legal transitions and only those")
struct BeepLifecycleTests {
    static let noon = Date(timeIntervalSince1970: 1_781_000_000)

    @Test("every pair of statuses: the move happens exactly when the edge is legal")
    func everyTransition() async throws {
        try await withTestApp { app, _ in
            let fixture = try await SignallingFixture.make(on: app.db, now: Self.noon)
            let participant = try await fixture.participant(on: app.db, now: Self.noon)
            let sql = app.db.sql
            let statuses: [Beep.Status] = [.pending, .sending, .sent, .failed, .answered, .ignored, .expired, .missed, .cancelled]
            var sequence = 0
            var legal = 0
            for from in statuses {
                for to in statuses {
                    let beep = try await fixture.pendingBeep(for: participant, at: Self.noon, sequence: sequence, on: app.db)
                    sequence += 1
                    let id = try beep.requireID()
                    try await sql.raw("UPDATE beeps SET status = \(bind: from.rawValue) WHERE id = \(bind: id)").run()
                    let moved = try await BeepLifecycle.move([id], to: to, on: sql)
                    let now = try #require(try await Beep.find(id, on: app.db)).status
                    if BeepLifecycle.isLegal(from: from, to: to) {
                        legal += 1
                        #expect(moved == [id] && now == to, "\(from) → \(to) is legal")
                    } else {
                        #expect(moved.isEmpty && now == from, "\(from) → \(to) is not")
                    }
                }
            }
            #expect(legal == 14, "the edges drawn in docs/beeps.md")
        }
    }

    @Test("docs/beeps.md lists exactly the legal edges")
    func documentedEdges() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/beeps.md"), encoding: .utf8)
        // Table rows: | `from` | `to` | why |
        var documented = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            if cells.count >= 2 { documented.insert("\(cells[0]) → \(cells[1])") }
        }
        var legal = Set<String>()
        for (to, sources) in BeepLifecycle.sources { for from in sources { legal.insert("\(from.rawValue) → \(to.rawValue)") } }
        #expect(documented == legal)
    }

    @Test("a statement naming an illegal edge is caught where it is written")
    func guardNamesOnlyLegalEdges() {
        #expect(BeepLifecycle.isLegal(from: .expired, to: .answered), "an answer begun in time takes an expired beep")
        #expect(!BeepLifecycle.isLegal(from: .answered, to: .sent))
        #expect(!BeepLifecycle.isLegal(from: .cancelled, to: .pending))
        let clause = BeepLifecycle.guardClause(from: [.sent], to: .expired)
        var serializer = SQLSerializer(database: PostgresDialectOnly())
        clause.serialize(to: &serializer)
        #expect(serializer.sql == "status IN ('sent')")
    }
}
