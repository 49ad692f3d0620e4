import Fluent
import Foundation
import MomentaryCore

/// Invitation codes: random 5-character codes (no vowels, no look-alikes), unique across the server
/// together with participant labels (`PublicCodes`).
enum InviteeService {
    /// Creates `count` new codes for a study, retrying the rare collision with an existing code.
    static func create(count: Int, studyID: UUID, on db: any Database, now: Date) async throws -> [Invitee] {
        guard (1...10_000).contains(count) else {
            throw CommandFailure.usage("--count must be between 1 and 10000, not \(count).")
        }
        return try await db.transaction { db in
            try await db.lockForWriting()
            var existing = try await PublicCodes.taken(on: db)
            let created = (0..<count).map { _ in Invitee(studyID: studyID, code: PublicCodes.fresh(avoiding: &existing), now: now) }
            // Inserted 500 to a statement: ten thousand codes one statement each took seconds.
            for chunk in created.chunked(500) {
                try await chunk.create(on: db)
            }
            return created
        }
    }

    /// Restricting locks the invitee's participants out of surveys and cancels their pending beeps.
    static func restrict(code: String, on db: any Database, now: Date) async throws -> Invitee {
        let normalized = code.trimmingCharacters(in: .whitespaces).uppercased()
        guard let invitee = try await Invitee.query(on: db).filter(\.$code == normalized).first() else {
            throw CommandFailure("There is no invitation code “\(normalized)”.")
        }
        let inviteeID = try invitee.requireID()
        try await db.transaction { db in
            invitee.status = .restricted
            invitee.updatedAt = now
            try await invitee.save(on: db)
            let participants = try await Participant.query(on: db).filter(\.$invitee.$id == inviteeID).all()
            for participant in participants where participant.status == .participating {
                try await ParticipantAdministration.setStatus(
                    .restricted, of: participant, reason: "the researchers restricted the participant", on: db, now: now)
            }
        }
        return invitee
    }

    /// Sort order researchers see: Invited → Participating → Restricted → Withdrawn, then by code.
    static func sorted(_ invitees: [Invitee]) -> [Invitee] {
        let order = Dictionary(uniqueKeysWithValues: Invitee.Status.allCases.enumerated().map { ($1, $0) })
        return invitees.sorted { ($0.status == $1.status) ? $0.code < $1.code : order[$0.status]! < order[$1.status]! }
    }
}
