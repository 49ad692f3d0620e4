import MomentaryCore

/// One row of the editor's question table. How the question looks is the participant app's
/// business: the editor frames the app's own survey screen (`SurveyPreviewRoutes`).
struct QuestionSummary: Encodable {
    let number: Int
    let id: String
    let text: String
    let type: String

    /// Every question of `document` (none when it cannot be read), numbered from 1.
    static func all(of document: SurveyDocument?) -> [QuestionSummary] {
        (document?.content ?? []).enumerated().map { index, question in
            QuestionSummary(number: index + 1, id: question.id, text: question.text.text, type: question.type.rawValue)
        }
    }
}
