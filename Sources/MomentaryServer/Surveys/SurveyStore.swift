import Fluent
import Foundation
import MomentaryCore

/// Creating surveys and saving versions: every save is a new, immutable version.
enum SurveyStore {
    @discardableResult
    static func create(
        studyID: UUID, kind: Survey.Kind, name: String, position: Int,
        document: String, authorID: UUID? = nil, on db: any Database, now: Date
    ) async throws -> Survey {
        let survey = Survey(studyID: studyID, kind: kind, name: name, position: position, now: now)
        try await survey.save(on: db)
        try await saveVersion(of: survey, document: document, authorID: authorID, on: db, now: now)
        return survey
    }

    /// A survey document as the JSON text stored in a version (keys sorted, so equal documents are equal text).
    static func text(of document: SurveyDocument) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    /// Appends a new version and makes it current.
    @discardableResult
    static func saveVersion(
        of survey: Survey, document: String, authorID: UUID?, on db: any Database, now: Date
    ) async throws -> SurveyVersion {
        let next = survey.currentVersion + 1
        let version = SurveyVersion(
            surveyID: try survey.requireID(), version: next, document: document, authorID: authorID, createdAt: now)
        try await version.save(on: db)
        survey.currentVersion = next
        survey.updatedAt = now
        try await survey.save(on: db)
        return version
    }
}
