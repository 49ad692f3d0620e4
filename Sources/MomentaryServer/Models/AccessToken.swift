import Fluent
import Foundation

/// A researcher's personal access token for `/api/v1/research/…` (`AccessTokens`).
final class AccessToken: Model, @unchecked Sendable {
    static let schema = "access_tokens"

    @ID(key: .id) var id: UUID?
    @Parent(key: "researcher_id") var researcher: Researcher
    @Field(key: "name") var name: String
    @Field(key: "token_hash") var tokenHash: String
    /// The secret's first characters, shown in lists so a researcher can tell tokens apart.
    @Field(key: "prefix") var prefix: String
    /// A JSON list of study ids the token is limited to; nil: every study the researcher may see.
    @OptionalField(key: "study_ids") var studyIDsJSON: String?
    @Field(key: "read_only") var readOnly: Bool
    /// Whether it may beep participants (M054): only tokens made for another system that does.
    @Field(key: "triggers_beeps") var triggersBeeps: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "expires_at") var expiresAt: Date
    @OptionalField(key: "last_used_at") var lastUsedAt: Date?
    @OptionalField(key: "revoked_at") var revokedAt: Date?

    init() {}

    var studyIDs: [UUID]? {
        get { studyIDsJSON.flatMap { try? JSONDecoder().decode([UUID].self, from: Data($0.utf8)) } }
        set { studyIDsJSON = newValue.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) } }
    }
}
