import Foundation
import MomentaryCore
import SQLKit

/// What an upload needs to know besides its body and its sender: the beep awaiting the
/// participant's answer, if any, and the study's default survey. Read by the authenticator in
/// the same query as the credentials (`ParticipantAuthenticator.readsUploadLookup`): every
/// database round trip costs an upload two thread hand-offs, at thousands a second.
struct UploadLookup: Sendable {
    /// The latest delivered beep not answered, ignored or expired by the signaller (whose
    /// answer window may have closed since: see `awaitedBeep(at:)`).
    let latestSentBeep: ParticipantStatusService.AwaitedBeep?
    let defaultSurveyID: UUID?
    /// The participant's zone now, stored with the response (M037).
    let timeZone: String
    /// The participant's language now, stored with the response (M043).
    let language: String?
    /// The study's time to finish a survey begun in a beep's answer window.
    let completionMinutes: Int

    func awaitedBeep(at now: Date) -> ParticipantStatusService.AwaitedBeep? {
        latestSentBeep?.awaited(at: now)
    }

    /// The select list and join that read it beside a query of `participants AS p` for the
    /// participant `participantID` (a bind of the id, or a column of ids being read), which
    /// the join uses itself, so neither part needs the other's value.
    static func columnsAndJoin(participantID: any SQLExpression) -> (columns: SQLQueryString, join: SQLQueryString) {
        let columns: SQLQueryString = """
            p.timezone AS participant_timezone, p.language AS participant_language, b.id AS beep_id, b.survey_id AS beep_survey_id, b.scheduled_at AS beep_scheduled_at,
            b.sent_at AS beep_sent_at, b.expires_at AS beep_expires_at,
            (\(SurveyCatalog.defaultExperienceSurveyIDQuery(ofStudy: SQLColumn("study_id", table: "p")))) AS default_survey_id,
            (SELECT s.completion_minutes FROM studies AS s WHERE s.id = p.study_id) AS completion_minutes
            """
        let join: SQLQueryString = """
            LEFT JOIN (\(ParticipantStatusService.latestSentBeepQuery(of: participantID))) AS b ON 1 = 1
            """
        return (columns, join)
    }

    /// Read from a row of `columnsAndJoin`'s columns, column by column (see the authenticator).
    init(_ row: any SQLRow) throws {
        defaultSurveyID = try row.decodeIfPresent(column: "default_survey_id", as: UUID.self)
        timeZone = try row.decode(column: "participant_timezone", as: String.self)
        language = try row.decodeIfPresent(column: "participant_language", as: String.self)
        completionMinutes = try row.decodeIfPresent(column: "completion_minutes", as: Int.self) ?? AnswerWindow.defaultCompletionMinutes
        if let id = try row.decodeIfPresent(column: "beep_id", as: UUID.self),
           let scheduledAt = try row.decodeIfPresent(column: "beep_scheduled_at", as: Date.self) {
            latestSentBeep = ParticipantStatusService.AwaitedBeep(
                id: id, surveyID: try row.decodeIfPresent(column: "beep_survey_id", as: UUID.self), scheduledAt: scheduledAt,
                sentAt: try row.decodeIfPresent(column: "beep_sent_at", as: Date.self),
                expiresAt: try row.decodeIfPresent(column: "beep_expires_at", as: Date.self))
        } else {
            latestSentBeep = nil
        }
    }
}
