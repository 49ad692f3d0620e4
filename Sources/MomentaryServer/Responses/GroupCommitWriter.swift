import Fluent
import Foundation
import Logging
import MomentaryCore
import NIOCore
import PostgresKit
import SQLKit

/// Group commit for answer sets. A 2xx means the answers are on disk (SQLite synchronous FULL),
/// so one transaction per response caps ingest at the disk's flush rate (a few hundred a second).
/// This single writer instead takes every submission waiting, stores them all in one transaction
/// and commits once, then answers each: a flush is paid per batch, not per response, and while
/// one batch commits the next one gathers. Callers validate before they queue (see
/// `ResponseIntake`), so the transaction only inserts and updates.
///
/// Within a batch one key is stored once and one beep answered once (see `BatchTransaction`);
/// a submission the database refuses is refused alone. If the batch itself fails (it cannot
/// begin or commit, the connection is lost), nothing of it is stored and each of its submissions
/// goes into the next batch, up to `maximumAttempts` times. Closing stores what is queued, then
/// refuses new submissions (503).
actor GroupCommitWriter {
    /// What the writer has done, for `/metrics` and tests.
    struct Statistics: Sendable, Equatable {
        var batches = 0
        var responses = 0
        var largestBatch = 0
        var failedBatches = 0
    }

    static let maximumBatch = 128
    static let maximumAttempts = 3

    private struct Queued {
        let item: ValidatedSubmission
        let continuation: CheckedContinuation<IngestOutcome, any Error>
        var attempts = 0
    }

    private let batches: WriterThread
    private let logger: Logger
    private let metrics: ServerMetrics?
    private var queue: [Queued] = []
    /// Participants seen since the last batch, with the latest time: written with the next batch.
    private var seen: [UUID: Date] = [:]
    private var wakeUp: CheckedContinuation<Void, Never>?
    private var loop: Task<Void, Never>?
    private var isClosed = false
    /// Submissions in the batch being stored (tests wait for a batch held up by a lock).
    private(set) var inBatch = 0
    private(set) var statistics = Statistics()

    /// Submissions taken and not yet answered: queued, or in the batch being stored.
    var unanswered: Int { queue.count + inBatch }
    /// False once `close()` has begun.
    var isOpen: Bool { !isClosed }

    /// `thread`: an event loop for the writer's batches alone (a one-thread group its owner shuts
    /// down after `close()`), as a batch on SQLite blocks it from BEGIN to COMMIT.
    init(destination: WriterThread.Destination, thread: any EventLoop, logger: Logger, metrics: ServerMetrics? = nil) {
        self.batches = WriterThread(destination: destination, thread: thread, logger: logger)
        self.logger = logger
        self.metrics = metrics
    }

    /// Queues `item` and returns once its batch is committed (or it was refused).
    func submit(_ item: ValidatedSubmission) async throws -> IngestOutcome {
        guard !isClosed else { throw Self.unavailable }
        if loop == nil {
            loop = Task { await self.run() }
        }
        return try await withCheckedThrowingContinuation { continuation in
            queue.append(Queued(item: item, continuation: continuation))
            wakeUp?.resume()
            wakeUp = nil
        }
    }

    /// Records that the participant made an authenticated request, in the next batch's
    /// transaction rather than a write of its own per request: `last_seen_at` tells researchers
    /// who is still taking part, and a moment's delay (or, after a crash, a lost moment) costs
    /// nothing there, while a commit per request would halve ingest. Returns at once.
    func noteSeen(_ participantID: UUID, at time: Date) {
        guard !isClosed else { return }
        seen[participantID] = max(time, seen[participantID] ?? time)
        if loop == nil {
            loop = Task { await self.run() }
        }
        wakeUp?.resume()
        wakeUp = nil
    }

    /// Stores everything queued, then stops; later submissions are refused with 503.
    func close() async {
        isClosed = true
        wakeUp?.resume()
        wakeUp = nil
        await loop?.value
        await batches.close()
    }

    static let unavailable = APIError(.serviceUnavailable, "Your answers could not be stored just now; please send them again.")
        .retryingAfter(seconds: 5)

    private func run() async {
        while true {
            if queue.isEmpty && seen.isEmpty {
                if isClosed { return }
                await withCheckedContinuation { wakeUp = $0 }
                continue
            }
            let batch = Array(queue.prefix(Self.maximumBatch))
            queue.removeFirst(batch.count)
            inBatch = batch.count
            let seenNow = seen
            seen = [:]
            do {
                let results = try await batches.store(batch.map(\.item), seen: seenNow)
                record(batchOf: batch.count)
                inBatch = 0
                for (queued, result) in zip(batch, results) {
                    queued.continuation.resume(with: result)
                }
            } catch {
                logger.error(batch.isEmpty ? "The participants seen could not be recorded"
                                           : "A batch of \(batch.count) responses could not be stored; retrying",
                             metadata: ["error": "\(error)"])
                statistics.failedBatches += 1
                // The participants seen are not tried again: the next request of each, finding
                // `last_seen_at` still old, notes them afresh, and a write that keeps failing
                // must not keep the writer (and its closing) retrying for ever.
                metrics?.counter("response_batches_failed_total").increment()
                var retry: [Queued] = []
                for var queued in batch {
                    queued.attempts += 1
                    if queued.attempts >= Self.maximumAttempts {
                        queued.continuation.resume(throwing: Self.unavailable)
                    } else {
                        retry.append(queued)
                    }
                }
                queue.insert(contentsOf: retry, at: 0)
                inBatch = 0
                // Whatever broke the batch (a full disk, a lost connection) gets a moment to pass.
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private func record(batchOf size: Int) {
        guard size > 0 else { return }
        statistics.batches += 1
        statistics.responses += size
        statistics.largestBatch = max(statistics.largestBatch, size)
        metrics?.counter("response_batches_total").increment()
        metrics?.counter("response_batch_submissions_total").increment(by: Int64(size))
    }
}
