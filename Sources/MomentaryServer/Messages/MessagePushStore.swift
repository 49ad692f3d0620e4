import Fluent
import Foundation
import SQLKit

/// The pushes announcing researchers' messages, as exactly-once work: each claimed (`sending`,
/// with the worker and time) before it is attempted and recorded (`sent` or `failed`) after. A
/// claim left by a worker that stopped is taken over after `stuckAfter` and pushed again with the
/// message's identity, so the phone replaces a notification that did arrive.
enum MessagePushStore {
    static let stuckAfter: TimeInterval = 120

    struct Claimed: Sendable {
        let id: UUID
        let participantID: UUID
        let text: String
    }

    static func claimDue(at now: Date, limit: Int, worker: String, on db: any Database) async throws -> [Claimed] {
        let claim = ClaimedRows(
            table: "messages", stateColumn: "push_state", pending: ParticipantMessage.PushState.pending.rawValue,
            sending: ParticipantMessage.PushState.sending.rawValue, orderColumn: "created_at", claimedAtColumn: "push_claimed_at",
            claimedByColumn: "push_claimed_by", returning: ["id", "participant_id", "text"])
        let rows = try await claim.claim(at: now, stuckAfter: stuckAfter, limit: limit, worker: worker, on: db)
        return try rows.map { row in
            Claimed(id: try row.decode(column: "id", as: UUID.self), participantID: try row.decode(column: "participant_id", as: UUID.self),
                    text: try row.decode(column: "text", as: String.self))
        }
    }

    static func record(_ id: UUID, state: ParticipantMessage.PushState, outcome: String, reason: String?, at now: Date, on db: any Database) async throws {
        try await db.sql.update("messages")
            .set("push_state", to: state.rawValue).set("push_outcome", to: outcome)
            .set("push_reason", to: reason.map { String($0.prefix(1000)) })
            .set("pushed_at", to: state == .sent ? now : nil)
            .where("id", .equal, id).run()
    }
}
