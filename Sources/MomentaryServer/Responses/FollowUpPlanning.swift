import Foundation
import MomentaryCore
import SQLKit

/// A follow-up beep a response asks for (a rule of its survey version's `follow_ups` that its
/// answers meet), decided by the intake before the response is stored.
struct PlannedFollowUp: Sendable, Hashable {
    /// The rule's position in `follow_ups`.
    let rule: Int
    let surveyName: String
    let scheduledAt: Date
    /// The signalling day it belongs to, in `timeZone`, the participant's zone when they answered.
    let localDate: LocalDate
    let timeZone: String
    let answerWindowMinutes: Int?
    let ignoresHours: Bool
}

/// Follow-up questionnaires: a response that meets a rule of its survey plans a beep of the rule's
/// survey `after_minutes` later. The beep is inserted in the transaction that stores the response,
/// so an acknowledged response never lacks its follow-up (no crash lies between them), and a
/// retried upload, which stores no second response, plans nothing more. The unique
/// (trigger_response_id, trigger_rule) index (M058) makes one rule of one response one beep.
///
/// From then on it is a beep like any other: the dispatcher claims it when due, and the usual
/// safeguards apply at send time (`SendCheck`): one due outside the participant's hours is
/// recorded as missed, as an API beep is, unless the rule says `"respect_hours": false`.
/// Replanning after a change of settings cancels only random and fixed beeps, so it leaves
/// follow-ups where they are.
enum FollowUpPlanning {
    /// What the answers ask for under the rules of the version answered, evaluated as `display_if`
    /// is. Pure: the intake calls it concurrently, off the writer's thread.
    static func followUps(
        of document: SurveyDocument, answers: [ValidatedAnswer], variables: [String: JSONValue] = [:], receivedAt: Date, timeZone: String
    ) -> [PlannedFollowUp] {
        guard document.extraFields[SurveyDocument.followUpsField] != nil else { return [] }
        var values: [String: JSONValue] = [:]
        for answer in answers {
            if let value = answer.status.value { values[answer.questionID] = value }
        }
        let zone = ParticipantTimeZone.resolve(timeZone)
        return document.followUps(meeting: values, variables: variables).map { index, rule in
            let due = receivedAt.addingTimeInterval(Double(rule.afterMinutes) * 60)
            return PlannedFollowUp(
                rule: index, surveyName: rule.survey.trimmingCharacters(in: .whitespacesAndNewlines), scheduledAt: due,
                localDate: WallClock.localDate(of: due, in: zone), timeZone: zone.identifier,
                answerWindowMinutes: rule.answerWindowMinutes, ignoresHours: !rule.respectHours)
        }
    }

    /// Stores the response's follow-up beeps, pending, in the writer's transaction. A beep names
    /// its survey by id, found by name among the study's active beep surveys: a rule whose survey
    /// has since been renamed or removed plans nothing (the study's readiness names the rule).
    /// Rare enough to take a statement each, which also numbers them one after another.
    nonisolated(nonsending) static func insert(
        _ followUps: [PlannedFollowUp], responseID: UUID, participantID: UUID, studyID: UUID, now: Date,
        on statements: any StatementRunner
    ) async throws {
        for followUp in followUps {
            try await statements.perform(statement(followUp, responseID: responseID, participantID: participantID, studyID: studyID, now: now))
        }
    }

    static func statement(_ followUp: PlannedFollowUp, responseID: UUID, participantID: UUID, studyID: UUID, now: Date) -> SQLQueryString {
        let origin = Beep.Origin.followUp.rawValue
        let day = followUp.localDate.description
        // NULL written out rather than bound: PostgreSQL cannot type a bound null in a select list.
        let window: SQLQueryString = followUp.answerWindowMinutes.map { "\(bind: $0)" } ?? "NULL"
        let ignoresHours: SQLQueryString = followUp.ignoresHours ? "\(bind: true)" : "NULL"
        return """
            INSERT INTO beeps (id, participant_id, study_id, survey_id, origin, local_date, sequence, scheduled_at, timezone, status,
                answer_window_minutes, ignores_hours, trigger_response_id, trigger_rule, created_at)
            SELECT \(bind: UUID()), \(bind: participantID), \(bind: studyID), s.id, \(bind: origin), \(bind: day),
                COALESCE((SELECT MAX(b.sequence) FROM beeps AS b
                    WHERE b.participant_id = \(bind: participantID) AND b.origin = \(bind: origin) AND b.local_date = \(bind: day)), -1) + 1,
                \(bind: followUp.scheduledAt), \(bind: followUp.timeZone), \(bind: Beep.Status.pending.rawValue),
                \(window), \(ignoresHours), \(bind: responseID), \(bind: followUp.rule), \(bind: now)
            FROM surveys AS s
            WHERE s.study_id = \(bind: studyID) AND s.name = \(bind: followUp.surveyName)
                AND s.kind = \(bind: Survey.Kind.esm.rawValue) AND s.active = \(bind: true)
            """
    }
}
