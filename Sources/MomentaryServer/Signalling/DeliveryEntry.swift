import Foundation

/// One push handed to a channel, with what the channel said.
struct PushAttempt: Sendable {
    let channel: String
    let outcome: PushOutcome
    let startedAt: Date
    let finishedAt: Date
}

/// How a claimed beep ends one round of delivery: what is written to its row, its delivery
/// attempt (when a push was made) and whether its participant must be marked unregistered.
struct DeliveryEntry: Sendable {
    let beep: ClaimedBeep
    let attempt: PushAttempt?
    /// `nil`: the beep stays `sending` because this worker will retry it.
    let status: Beep.Status?
    let outcome: String?
    let reason: String?
    let sentAt: Date?
    /// The push service disowned the token: the participant becomes inactive.
    var unregisters: Bool = false
    /// For a beep sent: when it stops being answerable (`AnswerWindow.deadline`).
    var expiresAt: Date? = nil
    /// For a beep sent: whether it ends the participant's earlier beep awaiting an answer (the
    /// Mappiness rule, in studies without an answer window of their own).
    var expiresPrevious = true
    /// For a beep sent: the study's reminders, minutes after it (`AnswerWindow.remindersAfterMinutes`).
    var reminderOffsets: [Int] = []

    /// The entry for a push outcome under the retry policy.
    static func resolve(_ beep: ClaimedBeep, attempt: PushAttempt, retryAllowed: Bool) -> DeliveryEntry {
        switch attempt.outcome {
        case .accepted(_, let serviceID):
            return DeliveryEntry(
                beep: beep, attempt: attempt, status: .sent, outcome: "accepted",
                reason: serviceID.map { "service id \($0)" }, sentAt: attempt.finishedAt)
        case .unregistered(let code, let reason):
            return DeliveryEntry(
                beep: beep, attempt: attempt, status: .failed, outcome: "unregistered",
                reason: describe(code, reason), sentAt: nil, unregisters: true)
        case .rejected(let code, let reason, let retryable):
            if retryable && retryAllowed {
                return DeliveryEntry(beep: beep, attempt: attempt, status: nil, outcome: nil, reason: nil, sentAt: nil)
            }
            let final = retryable ? "\(describe(code, reason)); gave up after \(beep.attempt) attempt(s)" : describe(code, reason)
            return DeliveryEntry(beep: beep, attempt: attempt, status: .failed, outcome: "rejected", reason: final, sentAt: nil)
        }
    }

    private static func describe(_ code: Int?, _ reason: String) -> String {
        code.map { "\($0) \(reason)" } ?? reason
    }
}
