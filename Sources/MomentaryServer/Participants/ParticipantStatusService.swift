import Fluent
import Foundation
import MomentaryCore

/// The app's home screen (Mappiness `user_status`): responses so far, response rate, typical
/// response time, the beep awaiting an answer, and a line of encouragement.
enum ParticipantStatusService {
    /// Beeps that reached the participant: the denominator of the response rate. Ignored beeps
    /// (arrived while the app was busy) are left out, as the SPEC says.
    static let deliveredStatuses: [Beep.Status] = [.sent, .answered, .expired]

    static func status(of participant: Participant, on db: any Database, now: Date) async throws -> ParticipantStatus {
        let participantID = try participant.requireID()
        let responses = try await SurveyResponse.query(on: db)
            .filter(\.$participant.$id == participantID).filter(\.$kind == .esm).count()
        let delivered = try await Beep.query(on: db)
            .filter(\.$participant.$id == participantID).filter(\.$status ~~ deliveredStatuses).count()
        let answered = try await Beep.query(on: db)
            .filter(\.$participant.$id == participantID).filter(\.$status == .answered).count()
        let delays = try await SurveyResponse.query(on: db)
            .filter(\.$participant.$id == participantID).filter(\.$delaySeconds != nil)
            .all(\.$delaySeconds).compactMap { $0 }
        let pending = try await pendingBeep(of: participantID, on: db, now: now)
        let rate = delivered > 0 ? Double(answered) / Double(delivered) : nil
        let study = try await Study.find(participant.$study.id, on: db)
        let over = study.map { studyIsOver(participant, study: $0, now: now) } ?? false
        return ParticipantStatus(
            responses: responses, responseRate: rate, typicalResponseSeconds: median(delays),
            pendingBeep: try pending.map { PendingBeep(id: try $0.requireID(), scheduledAt: $0.sentAt ?? $0.scheduledAt, expiresAt: $0.expiresAt) },
            message: over ? studyOverMessage : message(participant: participant, responses: responses, pending: pending != nil),
            feedbackAvailable: study?.feedbackEnabled ?? false, dataDownloadAvailable: study?.dataDownloadEnabled ?? false,
            dataDownloadEnabled: (study?.dataDownloadEnabled ?? false) && participant.downloadTokenHash != nil,
            environment: try await EnvironmentRisk.latest(
                participantID: participantID, sensitivity: participant.pollenSensitivity.flatMap(PollenType.init(rawValue:)), on: db, now: now))
    }

    static let studyOverMessage = "The study is over for you: no more beeps will come. Thank you for taking part!"

    /// Whether the study has ended for the participant today, in their own calendar.
    static func studyIsOver(_ participant: Participant, study: Study, now: Date) -> Bool {
        let zone = ParticipantTimeZone.resolve(participant.timeZone, studyDefault: study.defaultTimeZone)
        return study.end.isOver(
            on: WallClock.localDate(of: now, in: zone), registeredOn: LocalDate(participant.registeredLocalDate))
    }

    /// The beep awaiting an answer: the latest one delivered and not yet answered, ignored or expired.
    static func pendingBeep(of participantID: UUID, on db: any Database, now: Date) async throws -> Beep? {
        guard let beep = try await Beep.query(on: db)
            .filter(\.$participant.$id == participantID).filter(\.$status == .sent)
            .sort(\.$scheduledAt, .descending).first()
        else { return nil }
        if let expiresAt = beep.expiresAt, expiresAt <= now { return nil }
        return beep
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    private static func message(participant: Participant, responses: Int, pending: Bool) -> String {
        if pending { return "A beep is waiting: please answer as soon as you safely can." }
        let hours = participant.signallingSettings
        switch responses {
        case 0: return "Welcome! Your beeps will arrive between \(hours.start) and \(hours.end)."
        case 1: return "Thank you for your first response."
        default: return "Thank you: \(responses) responses so far."
        }
    }
}
