import Foundation
import MomentaryCore
import SQLKit

/// The messages table: every message between the study's researchers and its participants, in
/// the order written. `from` is `researchers` or `participant`; a researcher's message has the
/// `send_id` it shares with the others of the same sending, the `language` the participant read
/// it in, who sent it, when it was read, and what became of its notification (`push_state`:
/// `sent`, `failed`, `none` without an address, `pending` or `sending` while under way); a reply
/// names the message it answers (`in_reply_to`). Times are in UTC and in the participant's zone.
/// Read a page at a time by keyset and filtered as the other tables (by the day written, in UTC).
typealias MessageReader = ZonedPageReader<MessageRecord>

extension ZonedPageReader where Record == MessageRecord {
    init(studyID: UUID, filter: ExportFilter, pageSize: Int, sql: any SQLDatabase) async throws {
        try await self.init(studyID: studyID, pageSize: pageSize, sql: sql) { cursor, pageSize in
            var query: SQLQueryString = """
                SELECT m.id AS message_id, m.participant_id, p.label AS participant_label, p.timezone AS participant_timezone,
                    m.from_participant, m.send_id, m.in_reply_to, m.language, m.text, m.sent_by, m.created_at, m.read_at,
                    m.push_state, m.push_outcome
                FROM messages m
                JOIN participants p ON p.id = m.participant_id
                WHERE m.study_id = \(bind: studyID)
                """
            query += filter.conditions(time: "m.created_at", participant: "m.participant_id")
            let keyset = KeysetPage(table: "messages", alias: "m", timeColumn: "created_at")
            query += keyset.after(cursor)
            query += keyset.order(limit: pageSize)
            return query
        }
    }
}

/// One message as the messages table sees it.
struct MessageRecord: ZonedExportRecord {
    let messageId: UUID
    let participantId: UUID
    let participantLabel: String?
    let participantTimezone: String
    let fromParticipant: Bool
    let sendId: UUID?
    let inReplyTo: UUID?
    let language: String?
    let text: String
    let sentBy: String?
    let createdAt: Date
    let readAt: Date?
    let pushState: String
    let pushOutcome: String?
    var timeZone = TimeZone(identifier: "UTC")!
    var keysetID: UUID { messageId }
    var keysetTime: Date { createdAt }

    enum CodingKeys: String, CodingKey {
        case messageId = "message_id", participantId = "participant_id", participantLabel = "participant_label"
        case participantTimezone = "participant_timezone", fromParticipant = "from_participant", sendId = "send_id"
        case inReplyTo = "in_reply_to", language, text, sentBy = "sent_by", createdAt = "created_at", readAt = "read_at"
        case pushState = "push_state", pushOutcome = "push_outcome"
    }
}

enum MessageTable {
    static let header = [
        "study", "participant_id", "participant_label", "message_id", "from", "send_id", "in_reply_to", "language", "text",
        "sent_by", "timezone",
    ] + ResponseColumns.timePairs("sent_at", "read_at") + ["push_state", "push_outcome"]

    static func row(for message: MessageRecord, study: String) -> [ExportCell] {
        let zone = message.timeZone
        return [
            .text(study), ExportCell(id: message.participantId), ExportCell(message.participantLabel), ExportCell(id: message.messageId),
            .text(message.fromParticipant ? "participant" : "researchers"), ExportCell(id: message.sendId), ExportCell(id: message.inReplyTo),
            ExportCell(message.language), .text(message.text), ExportCell(message.sentBy), .text(zone.identifier),
        ] + ResponseColumns.timePair(message.createdAt, zone) + ResponseColumns.timePair(message.readAt, zone) + [
            .text(message.pushState), ExportCell(message.pushOutcome),
        ]
    }
}
