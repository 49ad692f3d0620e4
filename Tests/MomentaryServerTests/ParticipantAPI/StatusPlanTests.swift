import Foundation
@testable import MomentaryServer
import FluentKit
import SQLKit
import Testing

/// The home screen's counts read index entries only (M036): through the index of responses by
/// time they read every response row of the participant and sorted the delays, 3 ms a request at
/// 5,000 responses. The plan is the same with no rows as with thousands, so an empty database
/// shows it; on SQLite whichever database the suite runs on.
@Suite("The status counts read index entries only")
struct StatusPlanTests {
    @Test("responses and beeps are counted from covering indexes, and the median delay needs no sort")
    func countsFromIndexes() async throws {
        try await withSQLiteTestApp { app in
            let participantID = UUID()
            for statement in [ParticipantStatusService.countsStatement(of: participantID),
                              ParticipantStatusService.middleDelaysStatement(of: participantID, delays: 5_000)] {
                let plan = try await app.db.withConnection { connection in
                    let sql = connection as! any SQLDatabase
                    // A connection plans with the schema it last read, and EXPLAIN alone does not
                    // look again: a pooled one may hold the schema from midway through migrating.
                    // Reading a table makes it check for changes first.
                    try await sql.raw("SELECT COUNT(*) FROM responses").run()
                    return try await sql.raw("EXPLAIN QUERY PLAN \(statement)").all().map { try $0.decode(column: "detail", as: String.self) }
                }
                let reads = plan.filter { $0.contains(" responses ") || $0.contains(" beeps ") }
                #expect(!reads.isEmpty, "\(plan)")
                for read in reads {
                    #expect(read.hasPrefix("SEARCH"), "\(plan)")
                    #expect(read.contains("COVERING INDEX responses_participant_kind_delay")
                        || read.contains("COVERING INDEX beeps_participant_status_scheduled"), "\(plan)")
                }
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
            }
        }
    }
}
