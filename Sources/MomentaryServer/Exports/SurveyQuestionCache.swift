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
        let documents = try await sql.raw("""
            SELECT document FROM survey_versions WHERE survey_id = \(bind: survey) AND version = \(bind: version)
            """).all(decodingColumn: "document", as: String.self)
        var questionTexts: [String: String] = [:]
        if let text = documents.first, let document = try? SurveyDocument(jsonData: Data(text.utf8)) {
            for question in document.content where questionTexts[question.id] == nil {
                questionTexts[question.id] = question.text.text
            }
        }
        texts[key] = questionTexts
        return questionTexts
    }
}
