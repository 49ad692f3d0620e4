import Foundation
@testable import MomentaryServer
import SQLKit
import Testing

/// The home screen's counts read index entries only (M036): through the index of responses by
/// time they read every response row of the participant and sorted the delays, a cost that grew
/// with every answer. The plan is the same with no rows as with thousands, so an empty database
/// shows it; on SQLite whichever database the suite runs on (see `sqlitePlan` for the schema it
/// plans with).
@Suite("The status counts read index entries only")
struct StatusPlanTests {
    @Test("responses and beeps are counted from covering indexes (test beeps from their partial index), and the median delay needs no sort")
    func countsFromIndexes() async throws {
        try await withSQLiteTestApp { app in
            let participantID = UUID()
            for statement in [ParticipantStatusService.countsStatement(of: participantID),
                              ParticipantStatusService.middleDelaysStatement(of: participantID, delays: 5_000)] {
                let plan = try await sqlitePlan(of: statement, on: app.db)
                let reads = plan.filter { $0.contains(" responses ") || $0.contains(" beeps ") }
                #expect(!reads.isEmpty, "\(plan)")
                for read in reads {
                    #expect(read.hasPrefix("SEARCH"), "\(plan)")
                    #expect(read.contains("COVERING INDEX responses_participant_kind_delay")
                        || read.contains("COVERING INDEX beeps_participant_status_scheduled")
                        || read.contains("INDEX beeps_test_participant_status")
                        // The participant's test beeps, whose answers the delays leave out: a handful of rows.
                        || read.contains("(participant_id=? AND origin=?)"), "\(plan)")
                }
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
            }
        }
    }
}
