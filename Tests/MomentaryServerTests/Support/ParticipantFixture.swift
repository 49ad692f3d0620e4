import Fluent
import Foundation
@testable import MomentaryServer

extension Participant {
    /// Saves a participant taking part in `studyID`, filled as a registration fills one; tests
    /// name only what they care about. Signalling hours are minutes after local midnight.
    @discardableResult
    static func fixture(
        studyID: UUID, label: String? = nil, secretHash: String = "x",
        status: Status = .participating, active: Bool = true, timeZone: String = "Europe/London",
        beepsPerDay: Int = 2, signalStartMinutes: Int = 8 * 60, signalEndMinutes: Int = 22 * 60,
        sound: String? = nil, pushChannel: String = "none",
        registeredAt: Date = Date(), registeredLocalDate: String, updatedAt: Date = Date(),
        on db: any Database
    ) async throws -> Participant {
        let participant = Participant()
        participant.$study.id = studyID
        participant.label = label
        participant.secretHash = secretHash
        participant.status = status
        participant.active = active
        participant.timeZone = timeZone
        participant.beepsPerDay = beepsPerDay
        participant.signalStartMinutes = signalStartMinutes
        participant.signalEndMinutes = signalEndMinutes
        participant.sound = sound
        participant.pushChannel = pushChannel
        participant.registeredAt = registeredAt
        participant.registeredLocalDate = registeredLocalDate
        participant.updatedAt = updatedAt
        try await participant.save(on: db)
        return participant
    }
}
