import Fluent
import Foundation
import SQLKit

/// Writes the outcome of a round of delivery in one transaction: beep rows, delivery attempts,
/// expiry of the previous beep, the participants' channel health and unregistered tokens.
enum DeliveryStore {
    /// Tries the transaction up to three times: on PostgreSQL two workers recording beeps of the
    /// same participant can deadlock, and the database then aborts one of them. The transaction
    /// is all-or-nothing, so running it again is safe. If it still fails, the beeps stay
    /// `sending` and are later reported as `unknown`; they are never pushed again.
    static func record(_ entries: [DeliveryEntry], now: Date, on db: any Database) async throws {
        guard !entries.isEmpty else { return }
        var attempt = 1
        while true {
            do {
                try await recordOnce(entries, now: now, on: db)
                return
            } catch where attempt < 3 {
                db.logger.warning("Recording \(entries.count) delivery outcome(s) failed, trying again: \(String(reflecting: error))")
                attempt += 1
                try? await Task.sleep(for: .milliseconds(25 * attempt))
            }
        }
    }

    private static func recordOnce(_ entries: [DeliveryEntry], now: Date, on db: any Database) async throws {
        try await db.transaction { tx in
            let sql = tx.sql
            for entry in entries {
                guard let status = entry.status else { continue }
                try await sql.update("beeps")
                    .set("status", to: status.rawValue)
                    .set("sent_at", to: entry.sentAt)
                    .set("delivery_outcome", to: entry.outcome)
                    .set("delivery_reason", to: entry.reason)
                    .set("expires_at", to: entry.status == .sent ? entry.expiresAt : nil)
                    .where("id", .equal, entry.beep.id)
                    .where(BeepLifecycle.guardClause(from: [.sending], to: status))
                    .run()
            }
            for entry in entries where entry.status == .sent && !entry.reminderOffsets.isEmpty {
                try await ReminderStore.plan(
                    beepID: entry.beep.id, participantID: entry.beep.participantID, studyID: entry.beep.studyID,
                    sentAt: entry.sentAt ?? now, offsets: entry.reminderOffsets, deadline: entry.expiresAt, on: sql)
            }
            let attempts = entries.compactMap { entry in entry.attempt.map { deliveryAttempt(entry.beep.id, $0) } }
            if !attempts.isEmpty { try await attempts.create(on: tx) }
            try await expirePrevious(entries, now: now, on: sql)
            try await updateHealth(entries, on: sql)
            try await unregister(entries, now: now, on: sql)
        }
    }

    /// Without an answer window of the study's own, a response may be given until the next beep:
    /// sending a beep expires the participant's earlier sent-but-unanswered one.
    private static func expirePrevious(_ entries: [DeliveryEntry], now: Date, on sql: any SQLDatabase) async throws {
        var latestSent = [UUID: DeliveryEntry]()
        for entry in entries where entry.status == .sent && entry.expiresPrevious {
            if let other = latestSent[entry.beep.participantID], other.beep.scheduledAt > entry.beep.scheduledAt { continue }
            latestSent[entry.beep.participantID] = entry
        }
        guard !latestSent.isEmpty else { return }
        try await sql.update("beeps")
            .set("status", to: Beep.Status.expired.rawValue)
            .set("expires_at", to: now)
            .where("participant_id", .in, Array(latestSent.keys))
            .where(BeepLifecycle.guardClause(from: [.sent], to: .expired))
            .where("id", .notIn, latestSent.values.map(\.beep.id))
            .run()
    }

    /// `push_health` is the participant's last push outcome (the researchers' channel-health column).
    private static func updateHealth(_ entries: [DeliveryEntry], on sql: any SQLDatabase) async throws {
        var byOutcome = [String: Set<UUID>]()
        for entry in entries {
            guard let attempt = entry.attempt else { continue }
            byOutcome[attempt.outcome.label, default: []].insert(entry.beep.participantID)
        }
        for (label, participants) in byOutcome.sorted(by: { $0.key < $1.key }) {
            try await sql.update("participants").set("push_health", to: label)
                .where("id", .in, Array(participants)).run()
        }
    }

    /// The push service disowned the token: no more beeps are planned or sent to the participant
    /// until the app registers a new token.
    private static func unregister(_ entries: [DeliveryEntry], now: Date, on sql: any SQLDatabase) async throws {
        let participants = Array(Set(entries.filter(\.unregisters).map(\.beep.participantID)))
        guard !participants.isEmpty else { return }
        try await sql.update("participants")
            .set("active", to: false)
            .set("push_health", to: "unregistered")
            .set("planned_through", to: String?.none)
            .set("next_plan_at", to: Date?.none)
            .set("updated_at", to: now)
            .where("id", .in, participants)
            .run()
        try await sql.update("beeps")
            .set("status", to: Beep.Status.cancelled.rawValue)
            .set("delivery_reason", to: "the push service reported the participant's token unregistered")
            .where("participant_id", .in, participants)
            .where(BeepLifecycle.guardClause(from: [.pending], to: .cancelled))
            .run()
    }

    /// The row of one push; `reminder` is the sequence of the reminder it pushed, if it was one.
    static func deliveryAttempt(_ beepID: UUID, _ attempt: PushAttempt, reminder: Int? = nil) -> DeliveryAttempt {
        let row = DeliveryAttempt()
        row.$beep.id = beepID
        row.reminder = reminder
        row.channel = attempt.channel
        row.attemptedAt = attempt.startedAt
        row.outcome = attempt.outcome.label
        row.durationMilliseconds = attempt.finishedAt.timeIntervalSince(attempt.startedAt) * 1000
        switch attempt.outcome {
        case .accepted(let code, let serviceID):
            row.statusCode = code
            row.reason = serviceID
        case .rejected(let code, let reason, _), .unregistered(let code, let reason):
            row.statusCode = code
            row.reason = reason
        }
        return row
    }
}
