import Foundation

/// What one `UploadQueue.drain()` did.
public struct DrainReport: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Nothing more is due now (the queue may still hold items waiting for their time).
        case idle
        /// The server or network is unreachable; the whole queue waits until then.
        case paused(until: Date, reason: String)
        /// Another drain is already running; this one did nothing.
        case alreadyDraining
        case cancelled
        /// The queue's files could not be written; nothing was lost, the drain stopped.
        case storageFailure(String)
    }

    /// Acknowledged by the server and removed, in the order sent.
    public var delivered: [QueuedUpload] = []
    /// Refused for good and moved to the dead letters.
    public var deadLettered: [DeadLetter] = []
    /// Failed for now; each carries its attempt count and error.
    public var retryScheduled: [QueuedUpload] = []
    public var outcome: Outcome = .idle
    /// Items still waiting.
    public var remaining: Int = 0
    /// When draining again can achieve something; nil when the queue is empty.
    public var nextAttemptAt: Date?

    public init() {}
}
