import Foundation
import MomentaryCore

extension UploadQueue {
    /// Sends every item that is due, one at a time, in queue order, until none is left, the queue
    /// pauses after a network-wide failure, or the task is cancelled.
    public func drain() async -> DrainReport {
        var report = DrainReport()
        guard !isDraining else {
            report.outcome = .alreadyDraining
            return finish(report)
        }
        isDraining = true
        defer { isDraining = false }

        while true {
            if Task.isCancelled {
                report.outcome = .cancelled
                break
            }
            let now = clock.now()
            if let pausedUntil, now < pausedUntil {
                report.outcome = .paused(until: pausedUntil, reason: pauseReason)
                break
            }
            guard let (upload, outgoing) = nextReady(at: now, report: &report) else {
                report.outcome = .idle
                break
            }
            let acknowledgement: UploadAcknowledgement
            do {
                acknowledgement = try await sender(outgoing)
            } catch {
                let failure = MomentaryClientError(transportError: error)
                if failure == .cancelled {
                    report.outcome = .cancelled
                    break
                }
                if failure.isPermanent {
                    moveToDeadLetters(upload, reason: failure.description, report: &report)
                } else if let pause = recordRetryableFailure(upload, failure, report: &report) {
                    report.outcome = .paused(until: pause, reason: failure.description)
                    break
                }
                continue
            }
            do {
                try complete(upload, with: acknowledgement, report: &report)
            } catch {
                log("upload queue: cannot record delivery of \(upload.kind.rawValue) \(upload.id): \(error)")
                report.outcome = .storageFailure(String(describing: error))
                break
            }
        }
        return finish(report)
    }

    private func finish(_ report: DrainReport) -> DrainReport {
        var report = report
        report.remaining = items.count
        report.nextAttemptAt = nextAttemptTime()
        return report
    }

    /// The first due item in queue order that can be sent now. Photos wait for their response;
    /// a photo whose response is neither waiting nor acknowledged can never be sent and is set aside.
    private func nextReady(at now: Date, report: inout DrainReport) -> (QueuedUpload, OutgoingUpload)? {
        var index = 0
        while index < items.count {
            let upload = items[index]
            guard upload.isDue(at: now) else {
                index += 1
                continue
            }
            switch upload.item {
            case .pushToken(let push): return (upload, .pushToken(push))
            case .settings(let settings): return (upload, .settings(settings))
            case .response(let response): return (upload, .response(response))
            case .ignoredBeep(let beepID): return (upload, .ignoredBeep(beepID: beepID))
            case .withdraw(let request): return (upload, .withdraw(request))
            case .streamBatch(let batch): return (upload, .streamBatch(batch))
            case .photo(let photo):
                if let acknowledged = acknowledgements[photo.responseKey] {
                    return (upload, .photo(responseID: acknowledged.responseID, jpeg: photo.jpeg, isPublic: photo.isPublic))
                }
                if items.contains(where: { $0.responseKey == photo.responseKey }) {
                    index += 1
                    continue
                }
                let countBefore = items.count
                moveToDeadLetters(upload, reason: "Its response (idempotency key \(photo.responseKey)) was never accepted by the server.",
                                  report: &report)
                if items.count == countBefore { index += 1 }
            }
        }
        return nil
    }

    /// Records the server's acknowledgement, then removes the item. For a response the receipt is
    /// stored first, so its photos can always find the server's response id.
    private func complete(_ upload: QueuedUpload, with acknowledgement: UploadAcknowledgement,
                          report: inout DrainReport) throws {
        if case .response(let response) = upload.item {
            guard case .response(let receipt) = acknowledgement else {
                _ = recordRetryableFailure(upload, .invalidResponse(reason: "no response id in the acknowledgement"),
                                           report: &report)
                return
            }
            var updated = acknowledgements
            updated[response.idempotencyKey] = AcknowledgedResponse(responseID: receipt.responseID, acknowledgedAt: clock.now())
            try store.saveAcknowledgements(updated)
            acknowledgements = updated
        }
        try store.remove(upload)
        items.removeAll { $0.id == upload.id }
        consecutiveNetworkFailures = 0
        report.delivered.append(upload)
    }

    /// Network-wide failures pause the queue (returned); others back off only this item.
    private func recordRetryableFailure(_ upload: QueuedUpload, _ failure: MomentaryClientError,
                                        report: inout DrainReport) -> Date? {
        let now = clock.now()
        let requested = failure.retryAfter.map { min($0, BackoffPolicy.maximumRetryAfter) } ?? 0
        var pause: Date?
        var updated = upload
        updated.attempts += 1
        updated.lastError = failure.description
        if Self.affectsWholeQueue(failure) {
            consecutiveNetworkFailures += 1
            let delay = max(backoff.delay(afterAttempts: consecutiveNetworkFailures, unitRandom: randomUnit()), requested)
            pause = now.addingTimeInterval(delay)
            pausedUntil = pause
            pauseReason = failure.description
        } else {
            let delay = max(backoff.delay(afterAttempts: updated.attempts, unitRandom: randomUnit()), requested)
            updated.notBefore = now.addingTimeInterval(delay)
        }
        // The item may have been superseded while it was in flight; then there is nothing to update.
        if let index = items.firstIndex(where: { $0.id == upload.id }) {
            items[index] = updated
            do {
                try store.save(updated)
            } catch {
                log("upload queue: cannot record the failed attempt of \(upload.id): \(error)")
            }
        }
        report.retryScheduled.append(updated)
        return pause
    }

    /// Failures that say nothing about the item itself: the next item would fail the same way.
    static func affectsWholeQueue(_ failure: MomentaryClientError) -> Bool {
        switch failure {
        case .timeout, .connectionLost, .cannotConnect, .tooManyRequests: true
        case .unavailable(let status, _): status != 500
        default: false
        }
    }

    func moveToDeadLetters(_ upload: QueuedUpload, reason: String, report: inout DrainReport) {
        let letter = DeadLetter(upload: upload, reason: reason, droppedAt: clock.now())
        do {
            try store.saveDeadLetter(letter)
            try store.remove(upload)
        } catch {
            log("upload queue: cannot set aside \(upload.kind.rawValue) \(upload.id): \(error)")
            return
        }
        items.removeAll { $0.id == upload.id }
        report.deadLettered.append(letter)
        log("upload queue: dropped \(upload.kind.rawValue) \(upload.id) after \(upload.attempts + 1) attempt(s): \(reason)")
    }

    /// When a drain can next achieve something: the earliest item time, but not before the pause ends.
    private func nextAttemptTime() -> Date? {
        let sendable = items.filter { upload in
            guard let key = upload.photoResponseKey else { return true }
            return acknowledgements[key] != nil
        }
        let candidates = sendable.isEmpty ? items : sendable
        guard let earliest = candidates.map({ $0.notBefore ?? .distantPast }).min() else { return nil }
        let now = clock.now()
        return max(earliest, pausedUntil ?? now, now)
    }
}
