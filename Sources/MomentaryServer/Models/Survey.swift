import Fluent
import Foundation

final class Survey: Model, @unchecked Sendable {
    static let schema = "surveys"

    /// Registration surveys are answered once at sign-up; ESM surveys per beep.
    enum Kind: String, Codable, Sendable {
        case registration, esm
    }

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    @Field(key: "kind") var kind: Kind
    @Field(key: "name") var name: String
    @Field(key: "position") var position: Int
    @Field(key: "current_version") var currentVersion: Int
    @Field(key: "active") var active: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(studyID: UUID, kind: Kind, name: String, position: Int, now: Date) {
        self.$study.id = studyID
        self.kind = kind
        self.name = name
        self.position = position
        self.currentVersion = 0
        self.active = true
        self.createdAt = now
        self.updatedAt = now
    }
}

/// One saved version of a survey document (Beiwe-shaped JSON), never changed after it is written.
final class SurveyVersion: Model, @unchecked Sendable {
    static let schema = "survey_versions"

    @ID(key: .id) var id: UUID?
    @Parent(key: "survey_id") var survey: Survey
    @Field(key: "version") var version: Int
    @Field(key: "document") var document: String
    @OptionalParent(key: "author_id") var author: Researcher?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(surveyID: UUID, version: Int, document: String, authorID: UUID?, createdAt: Date) {
        self.$survey.id = surveyID
        self.version = version
        self.document = document
        self.$author.id = authorID
        self.createdAt = createdAt
    }
}

/// A fixed-schedule rules document for one survey.
final class Schedule: Model, @unchecked Sendable {
    static let schema = "schedules"

    @ID(key: .id) var id: UUID?
    @Parent(key: "study_id") var study: Study
    @Parent(key: "survey_id") var survey: Survey
    @Field(key: "document") var document: String
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    init(studyID: UUID, surveyID: UUID, document: String, updatedAt: Date) {
        self.$study.id = studyID
        self.$survey.id = surveyID
        self.document = document
        self.updatedAt = updatedAt
    }
}
