import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import SQLKit
import Testing

/// What the participant API does to a participant's beeps: registering plans them, new settings
/// replan them, a new push token after "unregistered" plans them again, withdrawing and
/// restricting cancel them and stop planning.
@Suite("Signalling: the participant API plans and cancels beeps")
struct SignallingAPIWiringTests {
    static func pending(_ participantID: UUID, _ db: any Database) async throws -> [Beep] {
        try await Beep.query(on: db).filter(\.$participant.$id == participantID).filter(\.$status == .pending).all()
    }

    static func nextPlanAt(_ participantID: UUID, _ db: any Database) async throws -> Date? {
        let row = try await db.sql.select().column("next_plan_at").from("participants")
            .where("id", .equal, participantID).first()
        return try row?.decodeNil(column: "next_plan_at") == false ? row?.decode(column: "next_plan_at", as: Date.self) : nil
    }

    @Test("register plans, new settings replan, withdrawing cancels and stops planning")
    func registerReplanWithdraw() async throws {
        try await withRunningServer { server in
            let db = server.app.db
            try await APIFixture.seedDemo(on: db)
            let (client, registered) = try await APIFixture.register(on: server)
            let id = registered.participantID
            let planned = try await Self.pending(id, db)
            #expect(planned.count >= 2, "at least tomorrow's two beeps")
            #expect(try await Self.nextPlanAt(id, db) != nil)

            let fewer = SignallingSettings(beepsPerDay: 1, start: TimeOfDay("09:00")!, end: TimeOfDay("18:00")!)
            try await client.updateSettings(fewer)
            let replanned = try await Self.pending(id, db)
            #expect(Set(replanned.map(\.id)).isDisjoint(with: planned.map(\.id)), "every earlier pending beep was replaced")
            #expect(replanned.count <= 2, "one a day for the rest of today and tomorrow")
            let cancelled = try await Beep.query(on: db).filter(\.$participant.$id == id).filter(\.$status == .cancelled).count()
            #expect(cancelled == planned.count)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Europe/London")!
            for beep in replanned {
                let parts = calendar.dateComponents([.hour, .minute], from: beep.scheduledAt)
                let minutes = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
                #expect((9 * 60)..<(18 * 60) ~= minutes, "inside the new hours")
            }

            try await client.withdraw()
            #expect(try await Self.pending(id, db).isEmpty)
            #expect(try await Self.nextPlanAt(id, db) == nil, "a withdrawn participant is never planned again")
        }
    }

    @Test("restricting a participant's code cancels their beeps; a new push token after unregistered plans again")
    func restrictAndReactivate() async throws {
        try await withRunningServer { server in
            let db = server.app.db
            _ = try await APIFixture.invitationOnlyStudy(on: db, codes: ["ABCDE", "FGHIJ"])
            let (_, first) = try await APIFixture.register(on: server, APIFixture.registration(study: "closed", invitation: "ABCDE"))
            #expect(try await !Self.pending(first.participantID, db).isEmpty)
            _ = try await InviteeService.restrict(code: "ABCDE", on: db, now: Date())
            #expect(try await Self.pending(first.participantID, db).isEmpty)
            #expect(try await Self.nextPlanAt(first.participantID, db) == nil)

            let (client, second) = try await APIFixture.register(on: server, APIFixture.registration(study: "closed", invitation: "FGHIJ"))
            let id = second.participantID
            // As the dispatcher leaves a participant whose token APNs disowned.
            try await BeepPlanner.cancelPendingBeeps(of: id, on: db, now: Date())
            let participant = try #require(try await Participant.find(id, on: db))
            participant.active = false
            participant.pushHealth = "unregistered"
            try await participant.save(on: db)
            try await client.updatePushToken(.apns(token: APNsHarness.deviceToken(), environment: .production))
            let reactivated = try #require(try await Participant.find(id, on: db))
            #expect(reactivated.active)
            #expect(try await !Self.pending(id, db).isEmpty, "planned again")
        }
    }
}
