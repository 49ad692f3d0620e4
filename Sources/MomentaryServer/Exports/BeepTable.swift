import Foundation
import MomentaryCore
import SQLKit

/// The beeps table, what compliance analysis needs: one row per beep of the study (whatever became
/// of it), in scheduled order. `status` is the beep's last state (`answered`, `ignored`, `missed`,
/// `expired`, `sent`, `failed`, `pending`, `cancelled`, …); `channel`, `delivery_outcome` and
/// `delivery_reason` are from the last attempt to send it; `response_id` and `delay_seconds` (beep
/// sent → survey started) are filled when it was answered; `opened_at` when its survey was first
/// opened, `expires_at` when its time to answer ended (or ends), `reminders_sent` how many
/// reminders the push services accepted, `trigger_response_id` the response whose answers planned a
/// follow-up beep (origin `follow_up`). Read a page at a time by keyset, like
/// the responses, and filtered the same way (by the day it was scheduled, in UTC).
typealias BeepReader = ZonedPageReader<BeepRecord>

extension ZonedPageReader where Record == BeepRecord {
    init(studyID: UUID, filter: ExportFilter, pageSize: Int, sql: any SQLDatabase) async throws {
        try await self.init(studyID: studyID, pageSize: pageSize, sql: sql) { cursor, pageSize in
            var query: SQLQueryString = """
                SELECT b.id AS beep_id, b.participant_id, p.label AS participant_label,
                    COALESCE(b.timezone, p.timezone) AS participant_timezone,
                    b.origin, s.name AS survey_name, b.scheduled_at, b.sent_at, b.status, b.delivery_outcome,
                    b.delivery_reason, b.ignored_at, b.answered_at, b.opened_at, b.expires_at, r.id AS response_id, r.delay_seconds,
                    b.trigger_response_id,
                    (SELECT COUNT(*) FROM reminders m WHERE m.beep_id = b.id AND m.status = 'sent') AS reminders_sent,
                    (SELECT d.channel FROM delivery_attempts d WHERE d.beep_id = b.id
                     ORDER BY d.attempted_at DESC LIMIT 1) AS channel
                FROM beeps b
                JOIN participants p ON p.id = b.participant_id
                LEFT JOIN surveys s ON s.id = b.survey_id
                LEFT JOIN responses r ON r.beep_id = b.id
                WHERE b.study_id = \(bind: studyID)
                """
            query += filter.conditions(time: "b.scheduled_at", participant: "b.participant_id")
            let keyset = KeysetPage(table: "beeps", alias: "b", timeColumn: "scheduled_at")
            query += keyset.after(cursor)
            query += keyset.order(limit: pageSize)
            return query
        }
    }
}

/// One beep as the beeps table sees it.
struct BeepRecord: ZonedExportRecord {
    let beepId: UUID
    let participantId: UUID
    let participantLabel: String?
    let participantTimezone: String
    let origin: String
    let surveyName: String?
    let scheduledAt: Date
    let sentAt: Date?
    let status: String
    let deliveryOutcome: String?
    let deliveryReason: String?
    let ignoredAt: Date?
    let answeredAt: Date?
    let openedAt: Date?
    let expiresAt: Date?
    let remindersSent: Int
    let responseId: UUID?
    let delaySeconds: Double?
    let channel: String?
    let triggerResponseId: UUID?
    var timeZone = TimeZone(identifier: "UTC")!
    var keysetID: UUID { beepId }
    var keysetTime: Date { scheduledAt }

    enum CodingKeys: String, CodingKey {
        case beepId = "beep_id", participantId = "participant_id", participantLabel = "participant_label"
        case participantTimezone = "participant_timezone", origin, surveyName = "survey_name"
        case scheduledAt = "scheduled_at", sentAt = "sent_at", status, deliveryOutcome = "delivery_outcome"
        case deliveryReason = "delivery_reason", ignoredAt = "ignored_at", answeredAt = "answered_at"
        case openedAt = "opened_at", expiresAt = "expires_at", remindersSent = "reminders_sent"
        case responseId = "response_id", delaySeconds = "delay_seconds", channel
        case triggerResponseId = "trigger_response_id"
    }
}

enum BeepTable {
    static let header = [
        "study", "participant_id", "participant_label", "beep_id", "origin", "survey", "timezone",
    ] + ResponseColumns.timePairs("scheduled_at", "sent_at") + [
        "channel", "delivery_outcome", "delivery_reason", "status", "reminders_sent",
    ] + ResponseColumns.timePairs("opened_at", "expires_at", "ignored_at", "answered_at") + ["response_id", "delay_seconds", "trigger_response_id"]

    static func row(for beep: BeepRecord, study: String) -> [ExportCell] {
        let zone = beep.timeZone
        return [
            .text(study), ExportCell(id: beep.participantId), ExportCell(beep.participantLabel), ExportCell(id: beep.beepId),
            .text(beep.origin), ExportCell(beep.surveyName), .text(zone.identifier),
        ] + ResponseColumns.timePair(beep.scheduledAt, zone) + ResponseColumns.timePair(beep.sentAt, zone) + [
            ExportCell(beep.channel), ExportCell(beep.deliveryOutcome), ExportCell(beep.deliveryReason), .text(beep.status),
            ExportCell(beep.remindersSent),
        ] + ResponseColumns.timePair(beep.openedAt, zone) + ResponseColumns.timePair(beep.expiresAt, zone)
            + ResponseColumns.timePair(beep.ignoredAt, zone) + ResponseColumns.timePair(beep.answeredAt, zone) + [
            ExportCell(id: beep.responseId), ExportCell(beep.delaySeconds), ExportCell(id: beep.triggerResponseId),
        ]
    }
}
