import Fluent
import Foundation
import MomentaryCore

final class SurveyResponse: Model, @unchecked Sendable {
    static let schema = "responses"

    @ID(key: .id) var id: UUID?
    @Parent(key: "participant_id") var participant: Participant
    @Parent(key: "study_id") var study: Study
    @Parent(key: "survey_id") var survey: Survey
    @Field(key: "survey_version") var surveyVersion: Int
    @OptionalParent(key: "beep_id") var beep: Beep?
    @Field(key: "kind") var kind: Survey.Kind
    /// Given with no beep pending.
    @Field(key: "volunteered") var volunteered: Bool
    @Field(key: "idempotency_key") var idempotencyKey: String
    @Field(key: "started_at") var startedAt: Date
    @Field(key: "submitted_at") var submittedAt: Date
    @Field(key: "received_at") var receivedAt: Date
    /// The participant's zone when answering (M037); local times of the response are shown in it.
    @OptionalField(key: "timezone") var timeZone: String?
    /// The language the answers were given in (M043).
    @OptionalField(key: "language") var language: String?
    /// Seconds from the beep being sent to the response being started; nil when volunteered.
    @OptionalField(key: "delay_seconds") var delaySeconds: Double?
    /// The app's survey timing events (`[SurveyTiming]` as JSON text); nil when none were sent.
    @OptionalField(key: "survey_timings") var surveyTimings: String?
    /// The survey's scores for these answers (`{"id": number | null}` as JSON text, M059); nil
    /// when the survey has none.
    @OptionalField(key: "scores") var scores: String?
    /// The question ids in the order shown (a JSON list, M059); nil when the app did not say.
    @OptionalField(key: "presented_order") var presentedOrder: String?
    /// What an imported file said beyond Momentary's columns, as JSON text (M048); nil when given
    /// in Momentary.
    @OptionalField(key: "kept_as_is") var keptAsIs: String?
    @Children(for: \.$response) var answers: [Answer]

    init() {}
}

final class Answer: Model, @unchecked Sendable {
    static let schema = "answers"

    @ID(key: .id) var id: UUID?
    @Parent(key: "response_id") var response: SurveyResponse
    @Field(key: "position") var position: Int
    @Field(key: "question_id") var questionID: String
    @Field(key: "question_type") var questionType: String
    /// `answered`, `NO_ANSWER_SELECTED` or `NOT_PRESENTED`.
    @Field(key: "status") var status: String
    /// The answer as JSON text, when answered.
    @OptionalField(key: "value") var value: String?

    init() {}
}

extension SurveyResponse {
    /// The zone the response was given in; the participant's for a row written without one.
    func zone(of participant: Participant, studyDefault: String?) -> TimeZone {
        ParticipantTimeZone.resolve(timeZone ?? participant.timeZone, studyDefault: studyDefault)
    }
}
