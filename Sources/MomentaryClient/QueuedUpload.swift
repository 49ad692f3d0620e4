import Foundation

/// An item waiting in the upload queue, with its delivery history.
public struct QueuedUpload: Codable, Sendable, Hashable, Identifiable {
    public let id: UUID
    /// Enqueue order across the whole queue; FIFO within an endpoint follows it.
    public let sequence: UInt64
    public let enqueuedAt: Date
    public let item: UploadItem
    /// Failed attempts so far.
    public var attempts: Int
    /// Not to be tried before this instant (backoff or Retry-After); nil means at once.
    public var notBefore: Date?
    /// Why the last attempt failed.
    public var lastError: String?

    public init(id: UUID = UUID(), sequence: UInt64, enqueuedAt: Date, item: UploadItem,
                attempts: Int = 0, notBefore: Date? = nil, lastError: String? = nil) {
        self.id = id
        self.sequence = sequence
        self.enqueuedAt = enqueuedAt
        self.item = item
        self.attempts = attempts
        self.notBefore = notBefore
        self.lastError = lastError
    }

    public var kind: UploadKind { item.kind }

    /// Queue order: endpoint priority, then first in, first out.
    static func queueOrder(_ lhs: QueuedUpload, _ rhs: QueuedUpload) -> Bool {
        (lhs.kind.priority, lhs.sequence) < (rhs.kind.priority, rhs.sequence)
    }

    func isDue(at now: Date) -> Bool {
        notBefore.map { $0 <= now } ?? true
    }

    enum CodingKeys: String, CodingKey {
        case id, sequence
        case enqueuedAt = "enqueued_at"
        case item, attempts
        case notBefore = "not_before"
        case lastError = "last_error"
    }
}

/// An item the queue gave up on because the server refused it for good, kept on disk so that
/// nothing vanishes silently (and can be queued again, e.g. after re-registering).
public struct DeadLetter: Codable, Sendable, Hashable {
    public var upload: QueuedUpload
    public var reason: String
    public var droppedAt: Date

    public init(upload: QueuedUpload, reason: String, droppedAt: Date) {
        self.upload = upload
        self.reason = reason
        self.droppedAt = droppedAt
    }

    enum CodingKeys: String, CodingKey {
        case upload, reason
        case droppedAt = "dropped_at"
    }
}
