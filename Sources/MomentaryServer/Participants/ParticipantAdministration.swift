import Fluent
import Foundation

/// What researchers may change about a participant from the website: the status (restrict,
/// withdraw, reinstate) and deleting what the participant sent. Beeps follow the status: leaving
/// cancels pending beeps and stops planning; reinstating plans the rest of today and tomorrow.
enum ParticipantAdministration {
    static func setStatus(_ status: Participant.Status, of participant: Participant, on db: any Database, now: Date) async throws {
        guard participant.status != status else { return }
        let participantID = try participant.requireID()
        try await db.transaction { db in
            participant.status = status
            participant.withdrawnAt = status == .withdrawn ? now : nil
            participant.updatedAt = now
            try await participant.save(on: db)
            if let invitee = try await participant.$invitee.get(on: db) {
                invitee.status = switch status {
                case .participating: .participating
                case .restricted: .restricted
                case .withdrawn: .withdrawn
                }
                invitee.updatedAt = now
                try await invitee.save(on: db)
            }
            if status == .participating {
                try await BeepPlanner.planNewParticipant(participantID, on: db, now: now)
            } else {
                let reason = status == .restricted ? "the researchers restricted the participant" : "the researchers withdrew the participant"
                try await BeepPlanner.cancelPendingBeeps(of: participantID, on: db, now: now, reason: reason)
            }
        }
    }

    /// Deletes the participant's responses, answers, context, photos and passive data; the
    /// participant and their beeps stay (compliance still counts them). Returns how many
    /// responses were deleted.
    @discardableResult
    static func deleteSentData(of participant: Participant, blobs: BlobStore, on db: any Database) async throws -> Int {
        let participantID = try participant.requireID()
        let (count, paths) = try await db.transaction { db -> (Int, [String]) in
            let count = try await SurveyResponse.query(on: db).filter(\.$participant.$id == participantID).count()
            return (count, try await ParticipantSettingsService.deleteSentDataRows(of: participantID, on: db))
        }
        for path in paths { blobs.remove(path) }
        return count
    }
}
