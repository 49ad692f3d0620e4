import Foundation
import MomentaryCore

/// The one persistent upload queue of a participant app.
///
/// Items are sent in endpoint priority (`UploadKind`), first in, first out within an endpoint.
/// Each is on disk before `enqueue` returns and leaves the disk only once the server acknowledged
/// it with a 2xx, so a crash at any point loses nothing; at worst an item is sent twice, which the
/// server absorbs (responses by idempotency key, the other endpoints are idempotent by nature).
///
/// Failures: a permanent one (4xx other than 408/429) moves the item to the dead letters. A
/// network-wide one (offline, timeout, 429, 502–504) pauses the whole queue with exponential
/// backoff, honouring Retry-After. Any other retryable one (500, garbled answer) backs off only
/// that item, so it cannot block the rest.
public actor UploadQueue {
    let store: UploadStore
    let sender: UploadSender
    let backoff: BackoffPolicy
    let clock: UploadClock
    let randomUnit: @Sendable () -> Double
    let log: @Sendable (String) -> Void

    /// Kept in queue order.
    var items: [QueuedUpload]
    var acknowledgements: [String: AcknowledgedResponse]
    var nextSequence: UInt64
    var isDraining = false
    /// Queue-wide pause after network-wide failures (not persisted: a restart is a fine moment to
    /// try again).
    var pausedUntil: Date?
    var pauseReason = ""
    var consecutiveNetworkFailures = 0

    /// Opens (or creates) the queue in `directory`.
    /// - Parameters:
    ///   - randomUnit: uniform numbers in 0..<1 for the backoff jitter.
    ///   - log: receives one line for each dropped item and each unreadable file.
    public init(directory: URL, sender: @escaping UploadSender, backoff: BackoffPolicy = .standard,
                clock: UploadClock = .system,
                randomUnit: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                log: @escaping @Sendable (String) -> Void = { _ in }) throws {
        let store = try UploadStore(directory: directory)
        let loaded = try store.loadItems()
        for (url, error) in loaded.unreadable {
            log("upload queue: set aside unreadable item file \(url.lastPathComponent): \(error)")
            try? store.quarantine(url)
        }
        let items = loaded.items.sorted(by: QueuedUpload.queueOrder)
        self.store = store
        self.sender = sender
        self.backoff = backoff
        self.clock = clock
        self.randomUnit = randomUnit
        self.log = log
        self.items = items
        self.nextSequence = (items.map(\.sequence).max() ?? 0) + 1
        var acknowledgements: [String: AcknowledgedResponse] = [:]
        do {
            acknowledgements = try store.loadAcknowledgements()
        } catch {
            // Cannot happen through our atomic writes; if it does, photos of delivered responses
            // end in the dead letters (recoverable) rather than the whole queue failing to open.
            log("upload queue: set aside unreadable acknowledged-responses file: \(error)")
            try? store.quarantine(store.acknowledgementsFile)
        }
        self.acknowledgements = Self.prunedAcknowledgements(acknowledgements, items: items, now: clock.now())
    }

    /// Stores the item durably and returns it as queued. Queuing a response whose idempotency key
    /// is already waiting returns the waiting one; a new push token or settings change replaces
    /// any older one still waiting.
    @discardableResult
    public func enqueue(_ item: UploadItem) throws -> QueuedUpload {
        try Self.validate(item)
        if case .response(let response) = item,
           let waiting = items.first(where: { $0.responseKey == response.idempotencyKey }) {
            return waiting
        }
        let upload = QueuedUpload(sequence: nextSequence, enqueuedAt: clock.now(), item: item)
        try store.save(upload)
        nextSequence += 1
        if item.kind.isSupersededByNewer {
            for old in items where old.kind == item.kind {
                try? store.remove(old)
            }
            items.removeAll { $0.kind == item.kind }
        }
        items.append(upload)
        items.sort(by: QueuedUpload.queueOrder)
        return upload
    }

    /// The waiting items, in the order they will be sent.
    public func pending() -> [QueuedUpload] {
        items
    }

    /// Items the server refused for good, oldest first.
    public func deadLetters() throws -> [DeadLetter] {
        try store.loadDeadLetters()
    }

    /// Queues every dead letter again (e.g. after the participant registered anew) and returns
    /// how many.
    @discardableResult
    public func requeueDeadLetters() throws -> Int {
        let letters = try store.loadDeadLetters()
        for letter in letters {
            try enqueue(letter.upload.item)
            try store.removeDeadLetter(letter)
        }
        return letters.count
    }

    /// Forgets the queue-wide pause, e.g. when the device reports that the network is back.
    public func resetBackoff() {
        pausedUntil = nil
        consecutiveNetworkFailures = 0
    }

    /// Drains whenever something is due, sleeping in between (at most `idleInterval` at a time, so
    /// items queued meanwhile go out without a separate call). Ends when the task is cancelled.
    public func run(idleInterval: TimeInterval = 60) async {
        while !Task.isCancelled {
            let report = await drain()
            var wait = report.nextAttemptAt.map { $0.timeIntervalSince(clock.now()) } ?? idleInterval
            if case .storageFailure = report.outcome { wait = idleInterval }
            do {
                try await clock.sleep(min(max(wait, 0.05), idleInterval))
            } catch {
                return
            }
        }
    }

    static func validate(_ item: UploadItem) throws(UploadQueueError) {
        switch item {
        case .response(let response):
            do {
                try response.validate()
            } catch {
                throw .invalidItem("The response cannot be queued: \(error.message)")
            }
        case .photo(let photo):
            guard !photo.responseKey.isEmpty else {
                throw .invalidItem("A photo must name the idempotency key of its response.")
            }
            guard !photo.jpeg.isEmpty else {
                throw .invalidItem("A photo must have JPEG data.")
            }
        case .streamBatch(let batch):
            guard ResponseSubmission.isValidIdempotencyKey(batch.idempotencyKey) else {
                throw .invalidItem("A stream batch needs an idempotency key of letters, digits, '-', '_', '.' or ':'.")
            }
            do {
                _ = try StreamBatchValidator.validate(batch.csv, as: batch.stream)
            } catch {
                throw .invalidItem("The \(batch.stream.rawValue) batch cannot be queued: \(error)")
            }
        default:
            break
        }
    }

    /// Keeps acknowledgements that a waiting photo may need, and any from the last week.
    static func prunedAcknowledgements(_ all: [String: AcknowledgedResponse], items: [QueuedUpload],
                                       now: Date) -> [String: AcknowledgedResponse] {
        let needed = Set(items.compactMap(\.photoResponseKey))
        let cutoff = now.addingTimeInterval(-7 * 24 * 60 * 60)
        return all.filter { needed.contains($0.key) || $0.value.acknowledgedAt >= cutoff }
    }
}

public enum UploadQueueError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidItem(String)

    public var description: String {
        switch self {
        case .invalidItem(let message): message
        }
    }
}

extension QueuedUpload {
    /// The idempotency key of a response item.
    var responseKey: String? {
        if case .response(let response) = item { response.idempotencyKey } else { nil }
    }

    /// The key of the response a photo item belongs to.
    var photoResponseKey: String? {
        if case .photo(let photo) = item { photo.responseKey } else { nil }
    }
}
