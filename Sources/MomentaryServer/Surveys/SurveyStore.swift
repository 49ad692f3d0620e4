import Fluent
import Foundation
import MomentaryCore
import SQLKit
import Vapor

/// Creating surveys and saving versions: every save is a new, immutable version.
enum SurveyStore {
    @discardableResult
    static func create(
        studyID: UUID, kind: Survey.Kind, name: String, position: Int,
        document: String, authorID: UUID? = nil, on db: any Database, now: Date
    ) async throws -> Survey {
        // One transaction, so a survey never exists without its first version.
        try await db.transaction { tx in
            let survey = Survey(studyID: studyID, kind: kind, name: name, position: position, now: now)
            try await survey.save(on: tx)
            try await saveVersion(of: survey, document: document, authorID: authorID, on: tx, now: now)
            return survey
        }
    }

    /// Adds a survey at the end of a study's list, refused (`SurveySetRules.Refusal`, its message
    /// for the researcher) when the study's set of surveys would break `SurveySetRules`. The rules are
    /// checked under the study row's lock, so two surveys added at once cannot both take a name.
    static func add(
        kind: Survey.Kind, name: String, document: String, toStudy studyID: UUID, authorID: UUID?, on db: any Database, now: Date
    ) async throws -> Survey {
        try await db.transaction { tx in
            try await tx.lockStudyForWriting(studyID)
            let existing = try await Survey.query(on: tx).filter(\.$study.$id == studyID).all()
            if let problem = SurveySetRules.problem(adding: name, kind: kind, to: existing.map { ($0.name, $0.kind) }) {
                throw SurveySetRules.Refusal(description: problem)
            }
            return try await create(
                studyID: studyID, kind: kind, name: name.trimmingCharacters(in: .whitespacesAndNewlines),
                position: (existing.map(\.position).max() ?? -1) + 1, document: document, authorID: authorID, on: tx, now: now)
        }
    }

    /// A survey document as the JSON text stored in a version (keys sorted, so equal documents are equal text).
    static func text(of document: SurveyDocument) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }

    /// Appends a new version and makes it current. The number is taken by incrementing the
    /// survey's row in the same transaction, which holds its lock until the version is written:
    /// two researchers saving at once get consecutive versions rather than one of them an error.
    /// With `basedOn`, a change made to that version is refused (409) if another version was
    /// saved since, checked under the same lock, so two such changes can never both be saved.
    @discardableResult
    static func saveVersion(
        of survey: Survey, document: String, authorID: UUID?, basedOn: Int? = nil, on db: any Database, now: Date
    ) async throws -> SurveyVersion {
        let surveyID = try survey.requireID()
        let version = try await db.transaction { tx -> SurveyVersion in
            let sql = tx.sql
            try await sql.update(Survey.schema)
                .set(SQLIdentifier("current_version"), to: SQLBinaryExpression(SQLIdentifier("current_version"), .add, SQLLiteral.numeric("1")))
                .where("id", .equal, surveyID)
                .run()
            guard let locked = try await Survey.find(surveyID, on: tx) else { throw Abort(.notFound, reason: "The survey no longer exists.") }
            if let basedOn, locked.currentVersion != basedOn + 1 {
                throw changedSince(current: locked.currentVersion - 1)
            }
            locked.updatedAt = now
            try await locked.update(on: tx)
            let version = SurveyVersion(
                surveyID: surveyID, version: locked.currentVersion, document: document, authorID: authorID, createdAt: now)
            try await version.create(on: tx)
            return version
        }
        survey.currentVersion = version.version
        survey.updatedAt = now
        return version
    }

    /// The refusal of a change made to an older version than the survey's current one.
    static func changedSince(current: Int) -> Abort {
        Abort(.conflict, reason: "The survey was saved since this page was opened (it is now version \(current)). "
            + "Open the editor again and repeat the change.")
    }
}
