import Fluent
import Foundation

extension SignalDispatcher {
    /// Sends every due reminder (and any a stopped worker left `sending`): claimed first, checked
    /// against the beep and the participant's current rows, pushed with the beep's identity, and
    /// recorded with its delivery attempt. Returns how many were pushed and accepted.
    func sendDueReminders(at now: Date) async throws -> Int {
        var accepted = 0
        while true {
            let claimed = try await ReminderStore.claimDue(
                at: now, stuckAfter: options.workerTimeout, limit: options.claimBatchSize, worker: workerID, on: database)
            accepted += try await deliver(claimed)
            if claimed.count < options.claimBatchSize { break }
        }
        return accepted
    }

    private func deliver(_ claimed: [ClaimedReminder]) async throws -> Int {
        guard !claimed.isEmpty else { return 0 }
        let beeps = try await Beep.query(on: database).filter(\.$id ~~ claimed.map(\.beepID)).all()
        let beepByID = Dictionary(beeps.compactMap { beep in beep.id.map { ($0, beep) } }, uniquingKeysWith: { first, _ in first })
        let participants = try await Participant.query(on: database).filter(\.$id ~~ Array(Set(claimed.map(\.participantID)))).all()
        let participantByID = Dictionary(participants.compactMap { row in row.id.map { ($0, row) } }, uniquingKeysWith: { first, _ in first })
        let studies = try await StudySignalling.load(Set(claimed.map(\.studyID)), includingFixedRules: false, on: database)

        let checkedAt = timeSource.now()
        let decisions = claimed.map { reminder in
            (reminder, SendCheck.decideReminder(
                reminder, beep: beepByID[reminder.beepID], participant: participantByID[reminder.participantID],
                study: studies[reminder.studyID], channels: channels, now: checkedAt))
        }
        let attempts = await push(decisions.map { ($0.0.id, $0.1) })
        var accepted = 0
        for (reminder, decision) in decisions {
            switch decision {
            case .skip(let status, let outcome, let reason):
                try await ReminderStore.record(
                    reminder, status: status == .failed ? .failed : .cancelled, outcome: outcome, reason: reason,
                    sentAt: nil, attempt: nil, on: database)
            case .send:
                guard let attempt = attempts[reminder.id] else { continue }
                let row = DeliveryStore.deliveryAttempt(reminder.beepID, attempt, reminder: reminder.sequence)
                metrics.counter("reminders_sent_total", labels: [("outcome", attempt.outcome.label)]).increment()
                if case .accepted = attempt.outcome {
                    accepted += 1
                    try await ReminderStore.record(
                        reminder, status: .sent, outcome: "accepted", reason: nil, sentAt: attempt.finishedAt, attempt: row, on: database)
                } else {
                    try await ReminderStore.record(
                        reminder, status: .failed, outcome: attempt.outcome.label, reason: row.reason, sentAt: nil, attempt: row, on: database)
                }
            }
        }
        return accepted
    }
}
