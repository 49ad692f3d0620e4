import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// A participant opening a beep's survey (`GET /api/v1/beeps/{id}/survey`).
///
/// A beep awaiting an answer is marked opened the first time, and its deadline moves to the end of
/// the study's time to finish: a survey begun in time may be finished, and no reminder follows an
/// opened beep. An answered beep is refused with 409 `beep_answered`, one past its deadline with
/// 410 `beep_expired`, so the app can say so instead of showing a survey that cannot count.
enum BeepOpening {
    /// `marking` false looks without opening (a fetch ahead of the participant, for offline use).
    static func open(
        _ beepID: UUID, of participantID: UUID, studyID: UUID, marking: Bool = true, on db: any Database, now: Date
    ) async throws -> Beep {
        guard let beep = try await Beep.find(beepID, on: db), beep.$participant.id == participantID else {
            throw APIError.notFound("There is no beep \(beepID.uuidString.lowercased()) for you.")
        }
        switch beep.status {
        case .answered:
            throw APIError(.beepAnswered, words: "api_error.beep_answered")
        case .expired:
            throw expired()
        case .sent:
            if let deadline = beep.expiresAt, deadline <= now { throw expired() }
            guard marking, beep.openedAt == nil else { return beep }
            let completion = try await Study.find(studyID, on: db)?.completionMinutes ?? AnswerWindow.defaultCompletionMinutes
            let finishBy = now.addingTimeInterval(Double(completion) * 60)
            let deadline = beep.expiresAt.map { max($0, finishBy) } ?? finishBy
            // Guarded by status and opened_at: a sweep or another request that got there first wins.
            try await db.sql.update("beeps")
                .set("opened_at", to: now).set("expires_at", to: deadline)
                .where("id", .equal, beepID).where("status", .equal, Beep.Status.sent.rawValue).where("opened_at", .is, SQLLiteral.null)
                .run()
            beep.openedAt = now
            beep.expiresAt = deadline
            return beep
        case .pending, .sending, .failed, .ignored, .missed, .cancelled:
            // Not awaiting an answer, but its survey may still be looked at (a device-scheduled
            // study's own notification, a pilot); an answer to it is judged when it arrives.
            return beep
        }
    }

    private static func expired() -> APIError {
        APIError(.beepExpired, words: "api_error.beep_passed")
    }
}
