import Fluent
import Foundation
import MomentaryCore

/// A beep that arrived while the app was busy (Mappiness `apn_ignored`): marked ignored, which
/// takes it out of the response rate; it is not rescheduled.
enum BeepReportService {
    static func reportIgnored(_ beepID: UUID, by participant: Participant, on db: any Database, now: Date) async throws {
        guard let beep = try await Beep.find(beepID, on: db), beep.$participant.id == participant.id else {
            throw APIError.notFound("There is no beep \(beepID.uuidString.lowercased()) for you.")
        }
        switch beep.status {
        case .ignored, .answered:
            // Already settled: an answer given after all wins over a late "ignored" report.
            return
        case .sent, .expired:
            beep.status = .ignored
            beep.ignoredAt = now
            try await beep.save(on: db)
        case .pending, .sending, .failed, .missed, .cancelled:
            throw APIError(.beepNotAnswerable, "This beep has not been delivered, so it cannot be reported as ignored.")
        }
    }
}
