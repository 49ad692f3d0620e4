import Fluent
import Foundation

final class Researcher: Model, @unchecked Sendable {
    static let schema = "researchers"

    @ID(key: .id) var id: UUID?
    @Field(key: "email") var email: String
    @Field(key: "name") var name: String
    @Field(key: "password_hash") var passwordHash: String
    @Parent(key: "role_id") var role: Role
    /// When false the researcher sees only the studies they are a member of.
    @Field(key: "all_studies") var allStudies: Bool
    @Field(key: "disabled") var disabled: Bool
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "last_sign_in_at") var lastSignInAt: Date?
    /// The base32 TOTP secret; nil while two-step sign-in is off.
    @OptionalField(key: "totp_secret") var totpSecret: String?
    /// The last TOTP step accepted, so no code is accepted twice.
    @OptionalField(key: "totp_last_step") var totpLastStep: Int64?

    init() {}

    init(email: String, name: String, passwordHash: String, roleID: UUID, allStudies: Bool, createdAt: Date) {
        self.email = email
        self.name = name
        self.passwordHash = passwordHash
        self.$role.id = roleID
        self.allStudies = allStudies
        self.disabled = false
        self.createdAt = createdAt
    }
}

final class StudyMembership: Model, @unchecked Sendable {
    static let schema = "study_memberships"

    @ID(key: .id) var id: UUID?
    @Parent(key: "researcher_id") var researcher: Researcher
    @Parent(key: "study_id") var study: Study

    init() {}

    init(researcherID: UUID, studyID: UUID) {
        self.$researcher.id = researcherID
        self.$study.id = studyID
    }
}

/// One of a researcher's single-use recovery codes, kept only as a hash.
final class RecoveryCode: Model, @unchecked Sendable {
    static let schema = "researcher_recovery_codes"

    @ID(key: .id) var id: UUID?
    @Parent(key: "researcher_id") var researcher: Researcher
    @Field(key: "code_hash") var codeHash: String
    @OptionalField(key: "used_at") var usedAt: Date?

    init() {}

    init(researcherID: UUID, codeHash: String) {
        self.$researcher.id = researcherID
        self.codeHash = codeHash
    }
}
