import Fluent
import Foundation
import MomentaryCore
import SQLKit
import Synchronization

/// Survey versions as parsed documents, kept by survey and version number. A saved version is
/// never changed (an edit saves a new version), and a survey's study and kind are fixed when it
/// is made, so a parsed copy stays right for the life of the process: ingest then validates
/// answers without reading or decoding the survey document for each response.
final class ParsedSurveyVersions: Sendable {
    struct Entry: Sendable {
        let studyID: UUID
        let kind: Survey.Kind
        let document: SurveyDocument
        // What ingest derives from the document for every response, derived once: each is a walk
        // over its texts or a read of its JSON extras.
        /// `document.variableNames`: whether a response needs the participant's variables.
        let variableNames: Set<String>
        /// `document.scores`, computed and stored with each response.
        let scores: [SurveyScore]
        /// `document.randomizedGroups`, which a response's `presented_order` is checked against.
        let randomizedGroups: [[String]]

        init(studyID: UUID, kind: Survey.Kind, document: SurveyDocument) {
            self.studyID = studyID
            self.kind = kind
            self.document = document
            variableNames = document.variableNames
            scores = document.scores
            randomizedGroups = document.randomizedGroups
        }
    }

    private struct Key: Hashable {
        let surveyID: UUID
        let version: Int
    }

    /// More versions than any server holds in use; past it the cache starts again rather than grow.
    static let capacity = 10_000
    private let entries = Mutex<[Key: Entry]>([:])

    init() {}

    /// The version `version` of survey `surveyID`, or nil when there is no such version. `db` is
    /// made only when the version is not kept already.
    func entry(surveyID: UUID, version: Int, on db: @autoclosure () -> any Database) async throws -> Entry? {
        let key = Key(surveyID: surveyID, version: version)
        if let entry = entries.withLock({ $0[key] }) { return entry }
        let sql = db().sql
        guard let row = try await sql.raw("""
            SELECT s.study_id, s.kind, v.document FROM surveys s JOIN survey_versions v ON v.survey_id = s.id
            WHERE s.id = \(bind: surveyID) AND v.version = \(bind: version)
            """).first()
        else { return nil }
        guard let kind = Survey.Kind(rawValue: try row.decode(column: "kind", as: String.self)) else { return nil }
        let entry = Entry(
            studyID: try row.decode(column: "study_id", as: UUID.self), kind: kind,
            document: try SurveyDocument(jsonData: Data(try row.decode(column: "document", as: String.self).utf8)))
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[key] = entry
        }
        return entry
    }
}
