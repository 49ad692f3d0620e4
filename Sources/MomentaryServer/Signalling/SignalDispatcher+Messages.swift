import Fluent
import Foundation

extension SignalDispatcher {
    /// The longest notification text: a message's start, the whole of it in the inbox.
    static let messagePreviewLength = 180

    /// Pushes every researchers' message waiting for its notification: claimed first, sent to
    /// the participant's current address (whatever their hours: someone wrote to them now), and
    /// recorded. A failed push is not tried again; the message waits in the inbox all the same.
    /// Returns how many the push services accepted.
    func sendDueMessages(at now: Date) async throws -> Int {
        var accepted = 0
        while true {
            let claimed = try await MessagePushStore.claimDue(at: now, limit: options.claimBatchSize, worker: workerID, on: database)
            accepted += try await deliver(claimed, at: now)
            if claimed.count < options.claimBatchSize { break }
        }
        return accepted
    }

    private func deliver(_ claimed: [MessagePushStore.Claimed], at now: Date) async throws -> Int {
        guard !claimed.isEmpty else { return 0 }
        let participants = try await Participant.query(on: database).filter(\.$id ~~ Array(Set(claimed.map(\.participantID)))).all()
        let byID = Dictionary(participants.compactMap { row in row.id.map { ($0, row) } }, uniquingKeysWith: { first, _ in first })
        let decisions = claimed.map { message in (message.id, Self.decide(message, participant: byID[message.participantID], channels: channels)) }
        let attempts = await push(decisions)
        var accepted = 0
        for (id, decision) in decisions {
            switch decision {
            case .skip(_, let outcome, let reason):
                try await MessagePushStore.record(id, state: .none, outcome: outcome, reason: reason, at: now, on: database)
            case .send:
                guard let attempt = attempts[id] else { continue }
                metrics.counter("message_pushes_total", labels: [("outcome", attempt.outcome.label)]).increment()
                switch attempt.outcome {
                case .accepted:
                    accepted += 1
                    try await MessagePushStore.record(id, state: .sent, outcome: "accepted", reason: nil, at: attempt.finishedAt, on: database)
                case .rejected(_, let reason, _), .unregistered(_, let reason):
                    try await MessagePushStore.record(id, state: .failed, outcome: attempt.outcome.label, reason: reason, at: attempt.finishedAt, on: database)
                }
            }
        }
        return accepted
    }

    /// The notification for a message, or why none goes: the participant left or was erased,
    /// or has no usable address on a configured channel.
    static func decide(_ message: MessagePushStore.Claimed, participant: Participant?, channels: PushChannelRegistry) -> SendDecision {
        guard let participant, participant.erasedAt == nil, participant.status != .withdrawn else {
            return .skip(status: .cancelled, outcome: "not_taking_part", reason: "the participant has left the study")
        }
        guard participant.active, let address = try? PushAddress(participant: participant),
              let channel = channels.channel(named: address.channel) else {
            return .skip(status: .failed, outcome: "no_address", reason: "the participant has no push address on a configured channel")
        }
        let preview = message.text.count > messagePreviewLength ? String(message.text.prefix(messagePreviewLength - 1)) + "…" : message.text
        return .send(PushMessage(id: message.id, kind: .message, participantID: message.participantID, alert: preview,
                                 sound: participant.sound, badge: 1, expiresAt: nil), address: address, channel: channel)
    }
}
