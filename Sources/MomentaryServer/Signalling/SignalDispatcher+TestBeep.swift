import Fluent
import Foundation
import MomentaryCore

/// How a test beep went, in one line for the terminal.
public struct TestBeepReport: Sendable, Hashable {
    public let beepID: UUID
    public let participantID: UUID
    public let channel: String
    /// `sent`, `failed`, …
    public let status: String
    public let outcome: String
    public let reason: String?

    /// Whether a push service took it: not so for a participant without push.
    public var accepted: Bool { status == Beep.Status.sent.rawValue && channel != "none" }

    public var line: String {
        "Test beep \(beepID) to participant \(participantID): "
            + Self.outcome(channel: channel, status: status, outcome: outcome, reason: reason)
    }

    /// What became of a test beep, in words the command line and the website share. A participant
    /// registered without push is not reached, whatever the development outbox took.
    static func outcome(channel: String, status: String, outcome: String?, reason: String?) -> String {
        guard channel != "none" else {
            return "not delivered: no push channel"
                + (status == Beep.Status.sent.rawValue ? " (only written to the development outbox)" : "")
        }
        let detail = [outcome, reason].compactMap { $0 }.joined(separator: ": ")
        return "\(status) via \(channel)" + (detail.isEmpty ? "" : " (\(detail))")
    }
}

/// Why a test beep could not even be attempted.
public enum TestBeepError: Error, Sendable, Hashable, CustomStringConvertible {
    case participantNotFound(UUID)
    case participantNotTakingPart(UUID, status: String)
    case studyArchived(String)

    public var description: String {
        switch self {
        case .participantNotFound(let id):
            "No participant has the id \(id)."
        case .participantNotTakingPart(let id, let status):
            "Participant \(id) is \(status); test beeps go only to participants taking part."
        case .studyArchived(let name):
            "The study “\(name)” is archived and sends no beeps, test beeps included; reopen it first."
        }
    }
}

extension SignalDispatcher {
    /// A researcher's pilot beep: inserts a beep with origin `test` due now and sends it at once
    /// through the same path as every beep (claim → push → record). Test beeps ignore the
    /// participant's hours and the study's style, and are not retried: the report says what happened.
    public func sendTestBeep(to participantID: UUID) async throws -> TestBeepReport {
        guard let participant = try await Participant.find(participantID, on: database) else {
            throw TestBeepError.participantNotFound(participantID)
        }
        guard participant.active, participant.status == .participating else {
            let status = participant.active ? participant.status.rawValue : "inactive (push token unregistered)"
            throw TestBeepError.participantNotTakingPart(participantID, status: status)
        }
        let now = timeSource.now()
        let studyID = participant.$study.id
        let study = try await Study.find(studyID, on: database)
        if let study, study.archivedAt != nil { throw TestBeepError.studyArchived(study.name) }
        let zone = ParticipantTimeZone.resolve(participant.timeZone, studyDefault: study?.defaultTimeZone)
        let localDate = WallClock.localDate(of: now, in: zone)
        let planned = PlannedBeep(
            origin: .test, localDate: localDate, scheduledAt: now, surveyID: nil, timeZone: zone.identifier)
        try await BeepStore.heartbeat(of: workerID, at: now, on: database)
        let claimed = try await database.transaction { tx -> ClaimedBeep? in
            try await PlanStore.lock(participantID, on: tx)
            return try await self.insertClaimed(planned, participantID: participantID, studyID: studyID, now: now, on: tx)
        }
        guard let claimed else { throw TestBeepError.participantNotFound(participantID) }
        let beepID = claimed.id
        let entries = try await deliver([claimed], retryAllowed: false)
        let entry = entries.first
        return TestBeepReport(
            beepID: beepID, participantID: participantID, channel: entry?.attempt?.channel ?? participant.pushChannel,
            status: entry?.status?.rawValue ?? Beep.Status.failed.rawValue,
            outcome: entry?.outcome ?? "unknown", reason: entry?.reason)
    }
}

extension SignalDispatcher {
    /// Inserts a beep due now and claims it for this worker in the caller's transaction, which
    /// holds the participant's plan lock: no other worker can take it in between. The caller has
    /// first recorded this worker's heartbeat, so no other worker takes the beep over while it is sent.
    nonisolated func insertClaimed(_ planned: PlannedBeep, participantID: UUID, studyID: UUID, now: Date, on tx: any Database) async throws -> ClaimedBeep? {
        let ids = try await PlanStore.insert([planned], participantID: participantID, studyID: studyID, now: now, on: tx)
        guard let beepID = ids.first else { return nil }
        return try await BeepStore.claim(beepID, at: now, worker: workerID, on: tx)
    }
}
