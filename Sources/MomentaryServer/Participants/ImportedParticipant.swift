import Fluent
import Foundation
import MomentaryCore

/// A participant whose data came from another system's files rather than from an app: never
/// beeped (no push channel, not active, never planned), holding no secret any app knows.
enum ImportedParticipant {
    /// Creates one in `study` labelled `label`, registered at `registeredAt` (not after `now`), in
    /// `zone` (the study's default zone when not given).
    static func create(
        label: String, in study: Study, source: String, registeredAt: Date, zone: TimeZone? = nil, on db: any Database, now: Date
    ) async throws -> Participant {
        let zone = zone ?? TimeZone(identifier: study.defaultTimeZone) ?? TimeZone(identifier: "UTC")!
        let participant = Participant()
        participant.$study.id = try study.requireID()
        participant.label = label
        participant.secretHash = SecretHash.of(ParticipantSecret.generate())
        participant.status = .participating
        participant.active = false
        participant.timeZone = zone.identifier
        participant.beepsPerDay = 2
        participant.signalStartMinutes = 8 * 60
        participant.signalEndMinutes = 22 * 60
        participant.pushChannel = "none"
        participant.appVersion = source
        participant.registeredAt = min(registeredAt, now)
        participant.registeredLocalDate = WallClock.localDate(of: participant.registeredAt, in: zone).description
        participant.updatedAt = now
        try await participant.create(on: db)
        return participant
    }
}
