import Foundation

/// One response as the exports see it: its metadata, the beep it answers, every answer row with
/// its question's text, and the sensed context. Built by `ExportReader` a page at a time.
struct ExportRecord: Sendable {
    var responseID: UUID
    var participantID: UUID
    /// The participant's short public label (invitation code or generated).
    var participantLabel: String?
    /// The zone the response was given in (else the participant's, else the study's), in which
    /// `_local` columns are written.
    var timeZone: TimeZone
    var surveyName: String
    var surveyKind: String
    var surveyVersion: Int
    var beepID: UUID?
    var scheduledAt: Date?
    var sentAt: Date?
    var startedAt: Date
    var submittedAt: Date
    var receivedAt: Date
    var delaySeconds: Double?
    var volunteered: Bool
    var answers: [ExportAnswer]
    var context: ExportContext?
    /// The app's survey timing events as stored (JSON text), if it sent any.
    var surveyTimings: String? = nil
    /// The response's number among its participant's responses (1 = first), when asked for.
    var sequence: Int? = nil
    /// Why the beep answered exists (`random`, `fixed`, or `test` for a researcher's test beep,
    /// which is not study data); nil for a response to no beep.
    var beepOrigin: String? = nil
    /// The language the survey was answered in (M043).
    var language: String? = nil
    var surveyID: UUID? = nil
    /// What an imported file said beyond Momentary's columns (JSON text, M048); nil when none.
    var keptAsIs: String? = nil
    /// The survey's scores for these answers (JSON text, M059); nil when it has none.
    var scores: String? = nil
    /// The question ids in the order shown (a JSON list, M059); nil when the app did not say.
    var presentedOrder: String? = nil
    /// The participant's variables now (a JSON object, M062); nil when none are set.
    var participantVariables: String? = nil
}

struct ExportAnswer: Sendable {
    /// Position in the survey, counting from 0 as stored.
    var position: Int
    var questionID: String
    var questionType: String
    /// The question as the participant read it in the version they answered; empty if unknown.
    var questionText: String
    /// `answered`, `NO_ANSWER_SELECTED` or `NOT_PRESENTED`.
    var status: String
    /// The answer as JSON text, when answered.
    var value: String?
}

struct ExportContext: Sendable {
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var horizontalAccuracy: Double?
    var verticalAccuracy: Double?
    var locatedAt: Date?
    var place: String?
    var country: String?
    var soundAverageDB: Double?
    var soundPeakDB: Double?
    var battery: Double?
    var connection: String?
    var steps: Int?
    var impetus: String?
    /// Environment attached by the server, each as JSON text.
    var weather: String?
    var airQuality: String?
    var pollen: String?

    /// The environment sources present, in sheet order, with their JSON text.
    var environment: [(source: String, json: String)] {
        [("weather", weather), ("air_quality", airQuality), ("pollen", pollen)].compactMap { source, json in
            json.map { (source, $0) }
        }
    }
}
