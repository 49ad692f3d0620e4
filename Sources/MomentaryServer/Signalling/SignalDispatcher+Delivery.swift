import Fluent
import Foundation

extension SignalDispatcher {
    /// Sends claimed beeps (checked against the participants' current rows), records how each
    /// ended in one transaction, and queues the retries the policy allows.
    func deliver(_ claimed: [ClaimedBeep], retryAllowed: Bool) async throws -> [DeliveryEntry] {
        guard !claimed.isEmpty else { return [] }
        let participantIDs = Array(Set(claimed.map(\.participantID)))
        let participants = try await Participant.query(on: database).filter(\.$id ~~ participantIDs).all()
        let byID = Dictionary(participants.compactMap { row in row.id.map { ($0, row) } }, uniquingKeysWith: { first, _ in first })
        let studies = try await StudySignalling.load(
            Set(claimed.map(\.studyID)), includingFixedRules: false, on: database)

        let checkedAt = timeSource.now()
        let decisions = claimed.map { beep in
            (beep, SendCheck.decide(
                beep, participant: byID[beep.participantID], study: studies[beep.studyID],
                channels: channels, now: checkedAt))
        }
        let attempts = await push(decisions.map { ($0.0.id, $0.1) })

        var entries = [DeliveryEntry]()
        for (beep, decision) in decisions {
            switch decision {
            case .skip(let status, let outcome, let reason):
                entries.append(DeliveryEntry(beep: beep, attempt: nil, status: status, outcome: outcome, reason: reason, sentAt: nil))
            case .send(let message, _, _):
                guard let attempt = attempts[beep.id] else { continue }
                let mayRetry = retryAllowed && beep.attempt <= options.retryDelays.count
                var entry = DeliveryEntry.resolve(beep, attempt: attempt, retryAllowed: mayRetry)
                entry.expiresAt = message.expiresAt
                // Only a beep without an answer window of its own ends the one before it (Mappiness).
                entry.expiresPrevious = studies[beep.studyID].flatMap { SendCheck.windowMinutes(of: beep, in: $0) } == nil
                if beep.origin != .test { entry.reminderOffsets = studies[beep.studyID]?.answerWindow.remindersAfterMinutes ?? [] }
                entries.append(entry)
            }
        }
        try await DeliveryStore.record(entries, now: timeSource.now(), on: database)
        account(entries)
        return entries
    }

    /// Hands the pushes to their channels, at most `sendConcurrency` at a time; the attempts come
    /// back under the keys they were given (a beep's id, or a reminder's).
    func push(_ decisions: [(key: UUID, decision: SendDecision)]) async -> [UUID: PushAttempt] {
        let jobs = decisions.compactMap { key, decision -> (UUID, PushMessage, PushAddress, any PushChannel)? in
            guard case .send(let message, let address, let channel) = decision else { return nil }
            return (key, message, address, channel)
        }
        let timeSource = self.timeSource
        let limit = options.sendConcurrency
        return await withTaskGroup(of: (UUID, PushAttempt).self) { group in
            var results = [UUID: PushAttempt]()
            var next = 0
            func addJob() {
                let (id, message, address, channel) = jobs[next]
                next += 1
                group.addTask {
                    let started = timeSource.now()
                    let outcome = await channel.send(message, to: address.target)
                    return (id, PushAttempt(channel: address.channel, outcome: outcome, startedAt: started, finishedAt: timeSource.now()))
                }
            }
            while next < min(limit, jobs.count) { addJob() }
            while let (id, attempt) = await group.next() {
                results[id] = attempt
                if next < jobs.count { addJob() }
            }
            return results
        }
    }

    /// Updates the retry queue, the health counters and the metrics for recorded entries.
    private func account(_ entries: [DeliveryEntry]) {
        for entry in entries {
            if let attempt = entry.attempt {
                metrics.counter("beeps_sent_total", labels: [("outcome", attempt.outcome.label)]).increment()
            }
            switch entry.status {
            case nil:
                let delay = options.retryDelays[entry.beep.attempt - 1]
                var next = entry.beep
                next.attempt += 1
                retries.append((next, (entry.attempt?.finishedAt ?? timeSource.now()).addingTimeInterval(delay)))
                metrics.counter("beeps_retried_total").increment()
            case .sent:
                health.sentTotal += 1
                if let sentAt = entry.sentAt {
                    let latency = max(0, sentAt.timeIntervalSince(entry.beep.scheduledAt))
                    metrics.durationHistogram("dispatch_latency_seconds").recordNanoseconds(Int64(latency * 1e9))
                }
            case .failed:
                health.failedTotal += 1
                metrics.counter("beeps_failed_total", labels: [("reason", entry.outcome ?? "unknown")]).increment()
                if entry.unregisters {
                    logger.warning("Participant \(entry.beep.participantID)'s push token is unregistered; marked inactive")
                }
            case .missed:
                health.missedTotal += 1
                metrics.counter("beeps_missed_total", labels: [("reason", entry.outcome ?? "unknown")]).increment()
            case .cancelled:
                metrics.counter("beeps_cancelled_total").increment()
            default:
                break
            }
        }
    }

    /// At shutdown, beeps waiting for a retry end `failed`: nobody will retry them.
    func abandonRetries() async {
        guard !retries.isEmpty else { return }
        let entries = retries.map { retry in
            DeliveryEntry(
                beep: retry.beep, attempt: nil, status: .failed, outcome: "rejected",
                reason: "the push service refused it and the worker stopped before the retry", sentAt: nil)
        }
        retries.removeAll()
        do {
            try await DeliveryStore.record(entries, now: timeSource.now(), on: database)
            account(entries)
        } catch {
            logger.error("Could not record abandoned retries: \(String(reflecting: error))")
        }
    }
}
