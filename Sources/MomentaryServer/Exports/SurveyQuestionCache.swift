import Foundation
import MomentaryCore
import SQLKit

/// The question texts of each survey version an export meets, read once per version: a study has
/// a handful of versions and millions of answers.
struct SurveyQuestionCache {
    private struct Key: Hashable {
        let survey: UUID
        let version: Int
    }

    private let sql: any SQLDatabase
    private var texts: [Key: [String: String]] = [:]

    init(sql: any SQLDatabase) {
        self.sql = sql
    }

    /// Question id → question text for one version. A version that is missing or cannot be read
    /// gives no texts (the answers are still exported) rather than failing the whole export.
    mutating func texts(survey: UUID, version: Int) async throws -> [String: String] {
        let key = Key(survey: survey, version: version)
        if let cached = texts[key] { return cached }
        struct Row: Decodable { let document: String; let languages: String }
        let rows = try await sql.raw("""
            SELECT v.document, s.languages FROM survey_versions AS v JOIN surveys AS u ON u.id = v.survey_id
            JOIN studies AS s ON s.id = u.study_id
            WHERE v.survey_id = \(bind: survey) AND v.version = \(bind: version)
            """).all(decoding: Row.self)
        var questionTexts: [String: String] = [:]
        if let row = rows.first, let document = try? SurveyDocument(jsonData: Data(row.document.utf8)) {
            // In the study's default language, as the codebook's question_text.
            let languages = (try? JSONDecoder().decode([String].self, from: Data(row.languages.utf8))) ?? StudyLanguages.default
            for question in document.content where questionTexts[question.id] == nil {
                questionTexts[question.id] = question.text.resolved(for: [], languages: languages.isEmpty ? StudyLanguages.default : languages)
            }
        }
        texts[key] = questionTexts
        return questionTexts
    }
}
