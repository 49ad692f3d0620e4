import Fluent
import Foundation

/// What one wake did.
public struct CycleReport: Sendable, Hashable {
    /// Beeps claimed from the database (retries not included).
    public var claimed = 0
    /// Pushes the services accepted.
    public var sent = 0
    /// Beeps that ended `failed`, `missed` or `cancelled` in this wake.
    public var failed = 0
    public var missed = 0
    public var cancelled = 0
    /// Beeps withheld by the too-many-at-once safeguard.
    public var refused = 0
    /// Sent beeps whose answer window closed in this wake.
    public var expired = 0
    /// Reminders the push services accepted.
    public var remindersSent = 0
    /// Researchers' messages whose notification the push services accepted.
    public var messagesSent = 0
    /// Participants whose next day was planned.
    public var participantsPlanned = 0
    /// When the dispatcher should wake next.
    public var nextWake = Date.distantFuture
}

extension SignalDispatcher {
    /// One wake: the safeguards, every due beep and due retry, then the planning of ended days.
    /// Tests and tools call it directly with a manual clock; the loop calls it on each wake.
    @discardableResult
    public func runCycle() async throws -> CycleReport {
        let now = timeSource.now()
        health.lastWake = now
        metrics.counter("signalling_wakes_total").increment()
        var report = CycleReport()

        try await BeepStore.heartbeat(of: workerID, at: now, on: database)
        report.add(try await resendTakenOver(at: now))
        let late = try await BeepStore.markLate(at: now, lateness: options.maximumLateness, on: database)
        if late > 0 {
            logger.warning("\(late) beep(s) were not sent within \(Int(options.maximumLateness)) s of their time and are marked missed")
            metrics.counter("beeps_missed_total", labels: [("reason", "late")]).increment(by: Int64(late))
            health.missedTotal += late
            report.missed += late
        }
        report.refused = try await refuseFloods(at: now)
        report.expired = try await BeepStore.expireDue(at: now, on: database)
        if report.expired > 0 { metrics.counter("beeps_expired_total").increment(by: Int64(report.expired)) }

        while true {
            let claimed = try await BeepStore.claimDue(
                at: now, limit: options.claimBatchSize, worker: workerID, on: database)
            report.claimed += claimed.count
            report.add(try await deliver(claimed, retryAllowed: true))
            if claimed.count < options.claimBatchSize { break }
            try await BeepStore.heartbeat(of: workerID, at: timeSource.now(), on: database)
        }
        let dueRetries = retries.filter { $0.dueAt <= now }.map(\.beep)
        if !dueRetries.isEmpty {
            retries.removeAll { $0.dueAt <= now }
            report.add(try await deliver(dueRetries, retryAllowed: true))
        }

        report.remindersSent = try await sendDueReminders(at: now)
        report.messagesSent = try await sendDueMessages(at: now)

        var generator = randomness
        report.participantsPlanned = try await BeepPlanner.planDueDays(
            on: database, now: now, limit: options.planningBatchSize, using: &generator)
        randomness = generator
        if report.participantsPlanned > 0 {
            metrics.counter("signalling_days_planned_total").increment(by: Int64(report.participantsPlanned))
        }
        report.nextWake = try await nextWake(
            after: now, planningBacklog: report.participantsPlanned >= options.planningBatchSize)
        health.nextWake = report.nextWake
        return report
    }

    /// The earliest of: the next pending beep or reminder, the next deadline of a sent beep, the
    /// next retry, the next day to plan, and
    /// `maximumSleep` from now (never in the past, so a beep another worker holds cannot spin us).
    private func nextWake(after now: Date, planningBacklog: Bool) async throws -> Date {
        let floor = now.addingTimeInterval(0.01)
        if planningBacklog { return floor }
        var next = now.addingTimeInterval(options.maximumSleep)
        if let due = try await BeepStore.earliestPending(on: database) { next = min(next, due) }
        if let plan = try await PlanStore.earliestPlanDue(on: database) { next = min(next, plan) }
        if let reminder = try await ReminderStore.earliestPending(on: database) { next = min(next, reminder) }
        if let deadline = try await BeepStore.earliestExpiry(on: database) { next = min(next, deadline) }
        if let retry = retries.map(\.dueAt).min() { next = min(next, retry) }
        return max(next, floor)
    }

    /// Beeps a stopped worker left `sending` (this worker's own too, on its first wake: it may be
    /// the same worker restarted), sent again now with the beep's identity: effectively once.
    private func resendTakenOver(at now: Date) async throws -> [DeliveryEntry] {
        let taken = try await BeepStore.takeOver(
            at: now, workerTimeout: options.workerTimeout, worker: workerID, includingOwn: !hasWoken, on: database)
        hasWoken = true
        guard !taken.isEmpty else { return [] }
        // One held for longer than a beep may be late samples the wrong moment: missed, as a late pending beep.
        let cutoff = now.addingTimeInterval(-options.maximumLateness)
        let late = taken.filter { $0.scheduledAt < cutoff }.map { beep in
            DeliveryEntry(beep: beep, attempt: nil, status: .missed, outcome: "late",
                          reason: "its worker stopped while sending it, and it was too late to send again", sentAt: nil)
        }
        if !late.isEmpty { try await DeliveryStore.record(late, now: now, on: database) }
        let fresh = taken.filter { $0.scheduledAt >= cutoff }
        logger.warning("\(taken.count) beep(s) were left sending by a stopped worker; sending \(fresh.count) again")
        metrics.counter("beeps_resent_total").increment(by: Int64(fresh.count))
        return late + (try await deliver(fresh, retryAllowed: true))
    }

    /// Mappiness' last safeguard: if more beeps fall due at one moment than a study (or the
    /// server) allows, something is wrong (a planning bug, a clock jump), and sending them could
    /// beep people many times over. None of them is sent; the alert stays until cleared.
    private func refuseFloods(at now: Date) async throws -> Int {
        let counts = try await BeepStore.dueCounts(at: now, on: database)
        guard !counts.isEmpty else { return 0 }
        let total = counts.values.reduce(0, +)
        var refusedStudies = [UUID]()
        var reason = ""
        if let limit = options.maximumDueAtOnce, total > limit {
            refusedStudies = Array(counts.keys)
            reason = "\(total) beeps fell due at once, more than the server's limit of \(limit)"
        } else {
            let studies = try await StudySignalling.load(Set(counts.keys), includingFixedRules: false, on: database)
            for (studyID, due) in counts.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
                guard let limit = studies[studyID]?.maxDueAtOnce, due > limit else { continue }
                refusedStudies.append(studyID)
                reason += (reason.isEmpty ? "" : "; ") + "\(due) beeps of study \(studyID) fell due at once, more than its limit of \(limit)"
            }
        }
        guard !refusedStudies.isEmpty else { return 0 }
        let refused = try await BeepStore.refuse(studies: refusedStudies, at: now, reason: reason, on: database)
        guard refused > 0 else { return 0 }
        let alert = "Refused to send \(refused) beep(s): \(reason). Check the schedules and the clock, then clear the alert."
        logger.critical("\(alert)")
        health.alert = alert
        health.alertRaisedAt = now
        health.refusedTotal += refused
        metrics.counter("beeps_due_refused_total").increment(by: Int64(refused))
        metrics.gauge("signalling_alert").set(1)
        return refused
    }
}

extension CycleReport {
    mutating func add(_ entries: [DeliveryEntry]) {
        for entry in entries {
            switch entry.status {
            case .sent: sent += 1
            case .failed: failed += 1
            case .missed: missed += 1
            case .cancelled: cancelled += 1
            default: break
            }
        }
    }
}
