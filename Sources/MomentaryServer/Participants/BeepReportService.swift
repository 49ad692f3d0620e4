import Fluent
import Foundation
import MomentaryCore
import SQLKit

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
            _ = try await BeepLifecycle.move([beepID], to: .ignored, setting: [("ignored_at", SQLBind(now))], on: db.sql)
        case .pending, .sending, .failed, .missed, .cancelled:
            throw APIError(.beepNotAnswerable, "This beep has not been delivered, so it cannot be reported as ignored.")
        }
    }
}
