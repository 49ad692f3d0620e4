import Foundation

/// How outboxes (mail, webhooks) space their tries: the wait doubles from a minute to six hours,
/// so a receiver down for a day still gets what was queued, over ten tries.
enum RetrySchedule {
    static let maximumAttempts = 10

    static func delay(afterAttempt attempt: Int) -> TimeInterval {
        min(60 * pow(2, Double(max(0, attempt - 1))), 6 * 3600)
    }
}
