import Fluent
import Foundation

extension ParticipantAdministration {
    /// What erasing keeps of a participant.
    enum ErasureHistory: String, CaseIterable {
        /// An anonymous participant and their beeps stay, so compliance figures stay true.
        case keep
        /// Nothing stays: the participant goes with every beep and delivery attempt.
        case delete
    }

    /// Erases everything that identifies a participant: what they sent (as `deleteSentData`), the
    /// messages between them and the researchers, and
    /// either the participant with their beeps, or (keeping history) their push token and keys,
    /// device, data-download link, credentials and the link to their invitation code, with a
    /// fresh label. Their invitation code stays as withdrawn, so it is never handed out again.
    static func erase(
        _ participant: Participant, history: ErasureHistory, blobs: BlobStore, on db: any Database, now: Date
    ) async throws {
        let participantID = try participant.requireID()
        let paths = try await db.transaction { db -> [String] in
            try await db.lockForWriting()
            let paths = try await deleteSentDataRows(of: participantID, on: db)
            // The researchers' messages were written to this person: they go with them.
            try await ParticipantMessage.query(on: db).filter(\.$participant.$id == participantID).delete()
            if let invitee = try await participant.$invitee.get(on: db) {
                invitee.status = .withdrawn
                invitee.updatedAt = now
                try await invitee.save(on: db)
            }
            switch history {
            case .delete:
                try await participant.delete(on: db)
            case .keep:
                try await BeepPlanner.cancelPendingBeeps(of: participantID, on: db, now: now, reason: "the researchers erased the participant")
                participant.$invitee.id = nil
                participant.label = try await PublicCodes.label(forInvitationCode: nil, on: db)
                participant.secretHash = SecretHash.of(UUID().uuidString + UUID().uuidString)
                participant.status = .withdrawn
                participant.withdrawnAt = participant.withdrawnAt ?? now
                participant.active = false
                participant.pushChannel = "none"
                participant.pushToken = nil
                participant.pushKeys = nil
                participant.pushHealth = nil
                participant.deviceModel = nil
                participant.deviceOS = nil
                participant.appVersion = nil
                participant.downloadTokenHash = nil
                // A partner's name or a baseline score is about the person.
                participant.variablesJSON = nil
                participant.erasedAt = now
                participant.updatedAt = now
                try await participant.save(on: db)
            }
            return paths
        }
        for path in paths { blobs.remove(path) }
    }
}
