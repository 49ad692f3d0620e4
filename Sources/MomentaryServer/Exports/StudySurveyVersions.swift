import Foundation
import MomentaryCore
import SQLKit

/// Every version of every survey of a study, read once before an export that needs them all up
/// front: the codebook lists them, and the wide table takes its columns from them. A study has a
/// handful of versions, so they are held in memory.
struct StudySurveyVersions {
    struct Version {
        let surveyID: UUID
        let surveyName: String
        let surveyKind: String
        let version: Int
        /// Nil when the stored document cannot be read (it is then left out, not fatal).
        let document: SurveyDocument?
    }

    /// In the study's survey order, then by version.
    let versions: [Version]
    /// The study's languages, the first the default.
    var languages = StudyLanguages.default
    /// The ids of the study's participant variables, in the researchers' order.
    var variableNames: [String] = []

    /// The question as the participant saw it in that survey version, in the language they answered
    /// in (nil: the default), for showing answers in words.
    func question(_ id: String, survey: String, version: Int, language: String? = nil) -> SurveyQuestion? {
        versions.first { $0.surveyName == survey && $0.version == version }?.document?.content.first { $0.id == id }?
            .localized(for: language.map { [$0] } ?? [], languages: languages)
    }

    private struct Row: Decodable {
        let id: UUID
        let name: String
        let kind: String
        let version: Int
        let document: String
    }

    static func load(studyID: UUID, sql: any SQLDatabase) async throws -> StudySurveyVersions {
        let rows = try await sql.raw("""
            SELECT s.id, s.name, s.kind, v.version, v.document FROM surveys s
            JOIN survey_versions v ON v.survey_id = s.id
            WHERE s.study_id = \(bind: studyID) ORDER BY s.position, s.name, v.version
            """).all(decoding: Row.self)
        struct StudyRow: Decodable { let languages: String?; let participant_variables: String? }
        let study = try await sql.raw("SELECT languages, participant_variables FROM studies WHERE id = \(bind: studyID)")
            .first(decoding: StudyRow.self)
        // Read by the same rules as the Study model's getters.
        return StudySurveyVersions(versions: rows.map { row in
            Version(surveyID: row.id, surveyName: row.name, surveyKind: row.kind, version: row.version,
                    document: try? SurveyDocument(jsonData: Data(row.document.utf8)))
        }, languages: Study.languages(stored: study?.languages),
           variableNames: Study.participantVariables(stored: study?.participant_variables).map(\.id))
    }
}
