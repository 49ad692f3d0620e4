import Fluent
import Foundation
import MomentaryCore

/// Changes a participant makes from the app: signalling settings (Mappiness `settings`), a new push
/// token (`update_token`), and leaving the study.
enum ParticipantSettingsService {
    /// New settings (and time zone, when given) take effect at once: the rest of today is replanned.
    static func updateSettings(_ update: SettingsUpdate, of participant: Participant, on db: any Database, now: Date) async throws {
        guard let study = try await Study.find(participant.$study.id, on: db) else {
            throw APIError.notFound("The participant's study no longer exists.")
        }
        let settings = try SignallingPolicy.validate(update.settings, for: study)
        if let zone = update.timezone {
            guard zone.count <= 64, let timeZone = TimeZone(identifier: zone) else {
                throw APIError.invalid("“\(zone.prefix(64))” is not a time zone; give an IANA name such as Europe/London.", field: "timezone")
            }
            participant.timeZone = timeZone.identifier
        }
        SignallingPolicy.apply(settings, to: participant)
        if let sensitivity = update.pollenSensitivity { participant.pollenSensitivity = sensitivity.rawValue }
        if let language = update.language { participant.language = try study.participantLanguage(language) }
        participant.updatedAt = now
        // Saved and replanned together: the rest of today pro rata under the new settings, and tomorrow.
        try await db.transaction { db in
            try await participant.save(on: db)
            try await BeepPlanner.settingsChanged(try participant.requireID(), on: db, now: now)
        }
    }

    static func updatePush(_ push: PushRegistration, of participant: Participant, on db: any Database, now: Date) async throws {
        try push.validate()
        ParticipantPushFields(push).apply(to: participant)
        participant.updatedAt = now
        // A new token reactivates a participant whose old one was reported unregistered: plan
        // them again (nothing is added for a participant whose days are already planned).
        try await db.transaction { db in
            try await participant.save(on: db)
            try await BeepPlanner.planNewParticipant(try participant.requireID(), on: db, now: now)
        }
    }

    /// Status Withdrawn (data kept), or everything the participant sent deleted when asked.
    static func withdraw(_ participant: Participant, deleteData: Bool, blobs: BlobStore, on db: any Database, now: Date) async throws {
        let participantID = try participant.requireID()
        let paths = try await db.transaction { db -> [String] in
            try await ParticipantAdministration.setStatus(.withdrawn, of: participant, reason: "the participant withdrew", on: db, now: now)
            guard deleteData else { return [] }
            return try await ParticipantAdministration.deleteSentDataRows(of: participantID, on: db)
        }
        // Files go after the rows are gone, so no row ever points at a missing file.
        for path in paths { blobs.remove(path) }
    }
}
