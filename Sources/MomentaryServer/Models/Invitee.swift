import Fluent
import Foundation

final class Invitee: Model, @unchecked Sendable {
    static let schema = "invitees"

    /// Sorted as researchers list them: Invited → Participating → Restricted → Withdrawn.
    enum Status: String, Codable, Sendable, CaseIterable {
        case invited, participating, restricted, withdrawn
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    @Field(key: "code") var code: String
    @Field(key: "status") var status: Status
    @OptionalField(key: "note") var note: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(studyID: UUID, code: String, now: Date) {
        self.$study.id = studyID
        self.code = code
        self.status = .invited
        self.createdAt = now
        self.updatedAt = now
    }
}
