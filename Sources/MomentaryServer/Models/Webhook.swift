import Fluent
import Foundation

/// An endpoint a study sends events to (`Webhooks`).
final class Webhook: Model, @unchecked Sendable {
    static let schema = "webhooks"

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    @Field(key: "url") var url: String
    /// The signing secret (whsec_…), shown to researchers when made; kept to sign every delivery.
    @Field(key: "secret") var secret: String
    /// `WebhookEvent.stored`: ",participant.joined,response.stored,".
    @Field(key: "events") var eventsText: String
    @Field(key: "created_at") var createdAt: Date
    /// The researcher's email, for the record.
    @OptionalField(key: "created_by") var createdBy: String?

    init() {}

    var events: [WebhookEvent] { WebhookEvent.parse(stored: eventsText) }
}
