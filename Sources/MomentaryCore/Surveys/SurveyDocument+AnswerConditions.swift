import Foundation

/// A condition on a whole response's answers, in the `display_if` language (an alert rule's
/// `{">=": ["phq9_item9", 2]}`): checked and evaluated by the very code that decides whether a
/// question is shown, as if the condition belonged to a question after the last.
extension SurveyDocument {
    /// What is wrong with the condition, in the words `display_if` problems use; empty when usable.
    public func answerConditionIssues(_ condition: DisplayCondition) -> [String] {
        var firstPosition: [String: Int] = [:]
        for (position, question) in content.enumerated() where firstPosition[question.id] == nil {
            firstPosition[question.id] = position
        }
        return issues(in: condition, questionID: "", position: content.count, firstPosition: firstPosition)
    }

    /// Whether the answers (question id → answer; skipped questions absent) meet the condition.
    /// A condition may name a score (`scores`), computed from these answers, and a participant
    /// variable as `var:name` (see `ParticipantVariableReference`).
    public func answers(
        _ answers: [String: JSONValue], meet condition: DisplayCondition, variables: [String: JSONValue] = [:]
    ) -> Bool {
        let resolved = condition.resolvingTextVariables(variables).resolvingValues { id, value in
            self.question(withID: id)?.position(ofValue: value)
        }
        return resolved.isSatisfied { id in
            if let question = self.question(withID: id) { return question.comparableValues(of: answers[id]) }
            if let name = ParticipantVariableReference.name(in: id) {
                return ParticipantVariableReference.comparableValues(of: variables[name])
            }
            return self.score(withID: id)?.value(given: answers, in: self).map { [$0] } ?? []
        }
    }
}
