import Fluent
import Foundation

/// Per-participant compliance for one study: beeps delivered, answered, ignored and missed, the
/// response rate, median delay, last contact and push health; plus daily study totals.
struct ComplianceReport: Sendable {
    struct Row: Sendable {
        let participantID: UUID
        let code: String
        let status: String
        let sent: Int
        let answered: Int
        let ignored: Int
        let missed: Int
        let responseRate: Double?
        let medianDelaySeconds: Double?
        let lastSeenAt: Date?
        let lastResponseAt: Date?
        let pushChannel: String
        let lastPushOutcome: String?
        let unregistered: Bool
    }

    struct Day: Sendable {
        let date: String
        let delivered: Int
        let answered: Int
        var rate: Double? { delivered > 0 ? Double(answered) / Double(delivered) : nil }
    }

    let rows: [Row]
    let days: [Day]

    var totalSent: Int { rows.reduce(0) { $0 + $1.sent } }
    var totalAnswered: Int { rows.reduce(0) { $0 + $1.answered } }
    var totalRate: Double? { totalSent > 0 ? Double(totalAnswered) / Double(totalSent) : nil }

    static func build(studyID: UUID, on db: any Database) async throws -> ComplianceReport {
        let participants = try await Participant.query(on: db).filter(\.$study.$id == studyID)
            .with(\.$invitee).sort(\.$registeredAt).all()
        let beeps = try await Beep.query(on: db).filter(\.$study.$id == studyID).all()
        let responses = try await SurveyResponse.query(on: db).filter(\.$study.$id == studyID).filter(\.$kind == .esm).all()
        let beepsByParticipant = Dictionary(grouping: beeps, by: { $0.$participant.id })
        let responsesByParticipant = Dictionary(grouping: responses, by: { $0.$participant.id })
        let delivered = Set(ParticipantStatusService.deliveredStatuses)

        let rows = try participants.map { participant in
            let id = try participant.requireID()
            let own = beepsByParticipant[id] ?? []
            let sent = own.filter { delivered.contains($0.status) }.count
            let answered = own.filter { $0.status == .answered }.count
            let answers = responsesByParticipant[id] ?? []
            let lastOutcome = own.filter { $0.deliveryOutcome != nil }.max { ($0.sentAt ?? $0.scheduledAt) < ($1.sentAt ?? $1.scheduledAt) }
            return Row(
                participantID: id, code: participant.label ?? participant.invitee?.code ?? "—", status: participant.status.rawValue,
                sent: sent, answered: answered,
                ignored: own.filter { $0.status == .ignored }.count,
                missed: own.filter { $0.status == .missed || $0.status == .expired }.count,
                responseRate: sent > 0 ? Double(answered) / Double(sent) : nil,
                medianDelaySeconds: ParticipantStatusService.median(answers.compactMap(\.delaySeconds)),
                lastSeenAt: participant.lastSeenAt, lastResponseAt: answers.map(\.submittedAt).max(),
                pushChannel: participant.pushChannel, lastPushOutcome: lastOutcome?.deliveryOutcome,
                unregistered: participant.pushHealth == "unregistered")
        }
        let days = Dictionary(grouping: beeps.filter { delivered.contains($0.status) }, by: \.localDate)
            .map { date, beeps in Day(date: date, delivered: beeps.count, answered: beeps.filter { $0.status == .answered }.count) }
            .sorted { $0.date < $1.date }
        return ComplianceReport(rows: rows, days: days)
    }
}
