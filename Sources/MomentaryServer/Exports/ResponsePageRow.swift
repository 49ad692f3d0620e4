import Foundation

/// One row of an export's page of responses, read by the columns `ResponsePageColumn` lists.
struct ResponsePageRow: Sendable {
    let row: ExportRow
    let responseID: UUID
    let surveyID: UUID
    let surveyVersion: Int
    let submittedAt: Date
    let participantTimezone: String

    init(_ row: ExportRow) throws {
        self.row = row
        responseID = try row.required(.responseID, row.uuid)
        surveyID = try row.required(.surveyID, row.uuid)
        surveyVersion = try row.required(.surveyVersion, row.integer)
        submittedAt = try row.required(.submittedAt, row.date)
        participantTimezone = try row.required(.participantTimezone, row.text)
    }

    func record(surveyName: String, timeZone: TimeZone, answers: [ExportAnswer]) throws -> ExportRecord {
        ExportRecord(
            responseID: responseID, participantID: try row.required(.participantID, row.uuid),
            participantLabel: row.text(.participantLabel), timeZone: timeZone, surveyName: surveyName,
            surveyKind: try row.required(.kind, row.text), surveyVersion: surveyVersion, beepID: row.uuid(.beepID),
            scheduledAt: row.date(.beepScheduledAt), sentAt: row.date(.beepSentAt),
            startedAt: try row.required(.startedAt, row.date), submittedAt: submittedAt,
            receivedAt: try row.required(.receivedAt, row.date), delaySeconds: row.real(.delaySeconds),
            volunteered: try row.required(.volunteered, row.bool), answers: answers, context: context,
            surveyTimings: row.text(.surveyTimings), sequence: row.has(.sequence) ? row.integer(.sequence) : nil,
            beepOrigin: row.text(.beepOrigin), language: row.text(.language), surveyID: surveyID,
            keptAsIs: row.text(.keptAsIs), scores: row.text(.scores), presentedOrder: row.text(.presentedOrder),
            participantVariables: row.text(.participantVariables))
    }

    private var context: ExportContext? {
        guard row.uuid(.contextID) != nil else { return nil }
        return ExportContext(
            latitude: row.real(.latitude), longitude: row.real(.longitude), altitude: row.real(.altitude),
            horizontalAccuracy: row.real(.horizontalAccuracy), verticalAccuracy: row.real(.verticalAccuracy),
            locatedAt: row.date(.locatedAt), place: row.text(.placeText), country: row.text(.country),
            soundAverageDB: row.real(.soundAverageDB), soundPeakDB: row.real(.soundPeakDB), battery: row.real(.battery),
            connection: row.text(.connection), steps: row.integer(.steps), impetus: row.text(.impetus),
            weather: row.text(.weather), airQuality: row.text(.airQuality), pollen: row.text(.pollen))
    }
}
