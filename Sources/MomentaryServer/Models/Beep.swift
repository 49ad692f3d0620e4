import Fluent
import Foundation

final class Beep: Model, @unchecked Sendable {
    static let schema = "beeps"

    enum Status: String, Codable, Sendable, CaseIterable {
        /// Planned, not yet due or not yet claimed.
        case pending
        /// Claimed by a dispatcher; the push is being attempted. Never sent again from this state.
        case sending
        /// The push service accepted it.
        case sent
        /// The push service refused it or could not be reached.
        case failed
        case answered, ignored, expired, missed
        /// Removed before sending (settings changed, participant withdrew or unregistered).
        case cancelled
    }

    /// Why the beep exists.
    enum Origin: String, Codable, Sendable, CaseIterable {
        /// `api`: asked for by another system through the research API (M054).
        case random, fixed, test, api
        /// Planned by a response that met a rule of its survey's `follow_ups` (M058).
        case followUp = "follow_up"
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "participant_id") var participant: Participant
    @Parent(key: "study_id") var study: Study
    @OptionalParent(key: "survey_id") var survey: Survey?
    @Field(key: "origin") var origin: Origin
    @Field(key: "local_date") var localDate: String
    @Field(key: "sequence") var sequence: Int
    @Field(key: "scheduled_at") var scheduledAt: Date
    /// The zone the beep was planned in (M037); local times of the beep are shown in it.
    @OptionalField(key: "timezone") var timeZone: String?
    @Field(key: "status") var status: Status
    @OptionalField(key: "claimed_at") var claimedAt: Date?
    @OptionalField(key: "claimed_by") var claimedBy: String?
    @OptionalField(key: "sent_at") var sentAt: Date?
    @OptionalField(key: "delivery_outcome") var deliveryOutcome: String?
    @OptionalField(key: "delivery_reason") var deliveryReason: String?
    @OptionalField(key: "expires_at") var expiresAt: Date?
    /// When the participant first opened the beep's survey (M039).
    @OptionalField(key: "opened_at") var openedAt: Date?
    /// The answer window of the fixed schedule that planned it, which wins over the study's (M039).
    @OptionalField(key: "answer_window_minutes") var answerWindowMinutes: Int?
    @OptionalField(key: "ignored_at") var ignoredAt: Date?
    /// The Idempotency-Key of the API call that asked for it (M054): one beep per key and participant.
    @OptionalField(key: "request_key") var requestKey: String?
    /// Sent whatever the participant's hours, as the API call asked (M054); nil is false.
    @OptionalField(key: "ignores_hours") var ignoresHours: Bool?
    /// The response whose survey's follow-up rule planned it, and the rule's position (M058).
    @OptionalField(key: "trigger_response_id") var triggerResponseID: UUID?
    @OptionalField(key: "trigger_rule") var triggerRule: Int?
    @OptionalField(key: "answered_at") var answeredAt: Date?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// One attempt to hand a beep to a push service, with what the service said.
final class DeliveryAttempt: Model, @unchecked Sendable {
    static let schema = "delivery_attempts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "beep_id") var beep: Beep
    @Field(key: "channel") var channel: String
    @Field(key: "attempted_at") var attemptedAt: Date
    @Field(key: "outcome") var outcome: String
    @OptionalField(key: "status_code") var statusCode: Int?
    @OptionalField(key: "reason") var reason: String?
    @OptionalField(key: "duration_ms") var durationMilliseconds: Double?
    /// The sequence of the reminder this attempt pushed; nil for the beep itself (M039).
    @OptionalField(key: "reminder") var reminder: Int?

    init() {}
}
