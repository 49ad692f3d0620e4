import Foundation

/// The columns that say whose response a row belongs to and when it happened, the same in the long,
/// wide and context tables. Every instant is written twice, `<name>_utc` and `<name>_local` (the
/// wall-clock time in the participant's zone, named once in `timezone`), so analyses by hour of day
/// need no time-zone arithmetic. Beep columns and `delay_seconds` (beep sent → survey started) are
/// empty for volunteered responses; `origin` is the beep's (`random`, `fixed`, or `test` for a
/// researcher's test beep, to be left out of analyses); `language` is the one the survey was
/// answered in.
enum ResponseColumns {
    static let header = [
        "study", "participant_id", "participant_label", "response_id", "survey", "survey_version", "beep_id", "origin",
        "volunteered", "timezone", "language",
    ] + timePairs("scheduled_at", "sent_at", "started_at", "submitted_at") + ["delay_seconds"]

    static func cells(for record: ExportRecord, study: String) -> [ExportCell] {
        let zone = record.timeZone
        return [
            .text(study), ExportCell(id: record.participantID), ExportCell(record.participantLabel),
            ExportCell(id: record.responseID), .text(record.surveyName), .number(Double(record.surveyVersion)),
            ExportCell(id: record.beepID), ExportCell(record.beepOrigin), .bool(record.volunteered), .text(zone.identifier),
            ExportCell(record.language),
        ] + timePair(record.scheduledAt, zone) + timePair(record.sentAt, zone) + timePair(record.startedAt, zone)
            + timePair(record.submittedAt, zone) + [ExportCell(record.delaySeconds)]
    }

    /// `name_utc`, `name_local` for each name.
    static func timePairs(_ names: String...) -> [String] {
        names.flatMap { [$0 + "_utc", $0 + "_local"] }
    }

    /// An instant as its UTC and local cells.
    static func timePair(_ date: Date?, _ zone: TimeZone) -> [ExportCell] {
        [ExportCell(date), .local(date, in: zone)]
    }
}
