import Fluent
import Foundation

/// One researcher action on the website (see `AuditLog`).
final class AuditEvent: Model, @unchecked Sendable {
    static let schema = "audit_events"

    @ID(key: .id) var id: UUID?
    @Field(key: "occurred_at") var occurredAt: Date
    @OptionalField(key: "researcher_id") var researcherID: UUID?
    @OptionalField(key: "researcher_email") var researcherEmail: String?
    /// In words: "save study settings", "sign in", "export".
    @Field(key: "action") var action: String
    /// The path acted on, with its query for downloads (`/studies/demo/export/download?format=wide`).
    @Field(key: "target") var target: String
    /// The answer's status and, where it says more, a word ("303", "401 failed").
    @Field(key: "outcome") var outcome: String
    @Field(key: "address") var address: String

    init() {}
}
