import Fluent
import Foundation

/// A participant's status and the data they sent, changed by the participant (withdrawal through
/// the API), by restricting their invitation code, or by researchers on the website. Beeps follow
/// the status: leaving cancels pending beeps and stops planning; reinstating plans the rest of
/// today and tomorrow. The invitee's status follows too. `active` is left alone: it says whether
/// the push token still works, which no status change alters.
enum ParticipantAdministration {
    /// `reason` is recorded on each cancelled beep, e.g. "the participant withdrew".
    static func setStatus(
        _ status: Participant.Status, of participant: Participant, reason: String, on db: any Database, now: Date
    ) async throws {
        guard participant.status != status else { return }
        let participantID = try participant.requireID()
        try await db.transaction { db in
            participant.status = status
            participant.withdrawnAt = status == .withdrawn ? now : nil
            participant.updatedAt = now
            try await participant.save(on: db)
            let inviteeStatus: Invitee.Status = switch status {
            case .participating: .participating
            case .restricted: .restricted
            case .withdrawn: .withdrawn
            }
            if let invitee = try await participant.$invitee.get(on: db), invitee.status != inviteeStatus {
                invitee.status = inviteeStatus
                invitee.updatedAt = now
                try await invitee.save(on: db)
            }
            if status == .withdrawn {
                try await WebhookOutbox.emit(.participantWithdrawn, subjects: [participantID], now: now, on: db)
            }
            if status == .participating {
                try await BeepPlanner.planNewParticipant(participantID, on: db, now: now)
            } else {
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
            try await db.lockForWriting()
            let count = try await SurveyResponse.query(on: db).filter(\.$participant.$id == participantID).count()
            return (count, try await deleteSentDataRows(of: participantID, on: db))
        }
        for path in paths { blobs.remove(path) }
        return count
    }

    /// Deletes the rows of everything the participant sent: responses (their answers and context
    /// go with them), blobs (photos, passive data) and their replies to messages. Returns the blob files to remove once the
    /// transaction has committed.
    static func deleteSentDataRows(of participantID: UUID, on db: any Database) async throws -> [String] {
        let paths = try await Blob.query(on: db).filter(\.$participant.$id == participantID).all(\.$storagePath)
        try await Blob.query(on: db).filter(\.$participant.$id == participantID).delete()
        try await SurveyResponse.query(on: db).filter(\.$participant.$id == participantID).delete()
        // Their replies to the researchers are theirs too.
        try await ParticipantMessage.query(on: db).filter(\.$participant.$id == participantID).filter(\.$fromParticipant == true).delete()
        return paths
    }
}
