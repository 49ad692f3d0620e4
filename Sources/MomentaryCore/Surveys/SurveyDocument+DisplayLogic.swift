import Foundation

extension SurveyDocument {
    /// Whether `question` is shown, given the answers so far (question id → answer; skipped and
    /// not-presented questions absent) and the participant's variables. Questions without
    /// `display_if` are always shown.
    public func isDisplayed(
        _ question: SurveyQuestion, given answers: [String: JSONValue], variables: [String: JSONValue] = [:]
    ) -> Bool {
        guard let condition = question.displayIf else { return true }
        return self.answers(answers, meet: condition, variables: variables)
    }
}
