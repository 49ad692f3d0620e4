import Fluent
import Foundation

/// One message in a participant's inbox (M057): written by the study's researchers to this
/// participant, in the language they read, or a participant's reply to them.
final class ParticipantMessage: Model, @unchecked Sendable {
    static let schema = "messages"

    /// Where a researcher's message stands with the push that announces it. Replies have none.
    enum PushState: String, Codable, Sendable {
        /// Waiting for the signaller; `sending` once claimed, then `sent` or `failed`.
        case pending, sending, sent, failed
        /// No push: a reply, or a participant without a push address.
        case none
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    @Parent(key: "participant_id") var participant: Participant
    @Field(key: "from_participant") var fromParticipant: Bool
    /// The rows written by one sending to many participants share it.
    @OptionalField(key: "send_id") var sendID: UUID?
    /// For a reply: the message it answers, when the participant named one.
    @OptionalField(key: "in_reply_to") var inReplyTo: UUID?
    @Field(key: "text") var text: String
    /// The study language the text is in (for a researcher's message).
    @OptionalField(key: "language") var language: String?
    /// The researcher who wrote it (email), for the record.
    @OptionalField(key: "sent_by") var sentBy: String?
    @Field(key: "created_at") var createdAt: Date
    /// When the participant opened it (researchers' messages) or a researcher saw it (replies: unused).
    @OptionalField(key: "read_at") var readAt: Date?
    /// A reply's Idempotency-Key.
    @OptionalField(key: "request_key") var requestKey: String?
    @Field(key: "push_state") var pushState: PushState
    @OptionalField(key: "push_outcome") var pushOutcome: String?
    @OptionalField(key: "push_reason") var pushReason: String?
    @OptionalField(key: "pushed_at") var pushedAt: Date?

    init() {}
}
