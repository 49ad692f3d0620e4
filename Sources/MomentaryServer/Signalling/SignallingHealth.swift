import Foundation

/// What a dispatcher reports about itself, for `/healthz`, `/metrics` and the researchers' page.
public struct SignallingHealth: Sendable, Hashable, Codable {
    public var workerID: String
    /// Whether the dispatcher's loop is running (false for a dispatcher used only by `beep now`).
    public var running: Bool
    public var lastWake: Date?
    public var nextWake: Date?
    /// Beeps the push services accepted, since the dispatcher started.
    public var sentTotal: Int
    /// Beeps that ended `failed` (refused by the service, no channel, no address, abandoned).
    public var failedTotal: Int
    /// Beeps not sent because they fell outside the participant's hours or came too late.
    public var missedTotal: Int
    /// Beeps withheld by the too-many-at-once safeguard.
    public var refusedTotal: Int
    /// The last unexpected error of a wake, if the last wake failed.
    public var lastError: String?
    /// Set when a safeguard tripped; stays until `clearAlert()` (or a restart), so an operator
    /// who looks later still sees it.
    public var alert: String?
    public var alertRaisedAt: Date?

    public init(workerID: String) {
        self.workerID = workerID
        running = false
        sentTotal = 0
        failedTotal = 0
        missedTotal = 0
        refusedTotal = 0
    }

    /// No safeguard tripped and the last wake succeeded.
    public var isHealthy: Bool { alert == nil && lastError == nil }

    enum CodingKeys: String, CodingKey {
        case workerID = "worker_id", running, lastWake = "last_wake", nextWake = "next_wake"
        case sentTotal = "sent_total", failedTotal = "failed_total", missedTotal = "missed_total"
        case refusedTotal = "refused_total", lastError = "last_error", alert, alertRaisedAt = "alert_raised_at"
    }
}
