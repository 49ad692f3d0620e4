import Foundation

extension SurveyDocument {
    /// Problems of one question's `display_if`: malformed nodes, empty and/or, references to
    /// unknown, own or later questions, and comparisons that can never hold.
    func displayLogicIssues(of question: SurveyQuestion, at position: Int, firstPosition: [String: Int]) -> [String] {
        guard let condition = question.displayIf else { return [] }
        return issues(in: condition, questionID: question.id, position: position, firstPosition: firstPosition)
            .map { "display_if \($0)" }
    }

    func issues(
        in condition: DisplayCondition, questionID: String, position: Int, firstPosition: [String: Int]
    ) -> [String] {
        switch condition {
        case .and(let nodes), .or(let nodes):
            let name = if case .and = condition { "and" } else { "or" }
            let own = nodes.isEmpty ? ["has an empty “\(name)”: it needs at least one condition"] : []
            return own + nodes.flatMap {
                issues(in: $0, questionID: questionID, position: position, firstPosition: firstPosition)
            }
        case .not(let node):
            return issues(in: node, questionID: questionID, position: position, firstPosition: firstPosition)
        case .malformed(_, let reason):
            return ["is malformed: \(reason)"]
        case .matches(let target, let comparison, let value):
            return valueIssues(
                target: target, comparison: comparison, value: value,
                questionID: questionID, position: position, firstPosition: firstPosition)
        case .compare(let target, let comparison, let value):
            return comparisonIssues(
                target: target, comparison: comparison, value: value,
                questionID: questionID, position: position, firstPosition: firstPosition)
        }
    }

    /// Issues of `[question, "value"]`: the same reference rules, then the value must name an option.
    private func valueIssues(
        target: String, comparison: ComparisonOperator, value: String,
        questionID: String, position: Int, firstPosition: [String: Int]
    ) -> [String] {
        if let reference = referenceIssue(target, questionID: questionID, position: position, firstPosition: firstPosition) {
            return [reference]
        }
        if ParticipantVariableReference.name(in: target) != nil {
            return comparison == .equal || comparison == .notEqual ? []
                : ["compares \(target) with “\(value)” using “\(comparison.rawValue)”; a text is compared only with == or !="]
        }
        guard let targetPosition = firstPosition[target] else {
            return ["compares score “\(target)” with the text “\(value)”; a score is a number, so compare it with a number"]
        }
        let question = content[targetPosition]
        let targetLabel = SurveyQuestion.label(position: targetPosition, id: target)
        let keys = question.comparableKeys
        if keys.isEmpty {
            return ["compares \(targetLabel) with the text “\(value)”, but only choices and suggested tokens can be "
                + "named by their value; compare other answers with a number"]
        }
        var issues: [String] = []
        if comparison != .equal && comparison != .notEqual {
            issues.append("compares \(targetLabel) with “\(value)” using “\(comparison.rawValue)”; an option named by its value "
                + "is compared only with == or !=")
        }
        if !keys.contains(value) {
            let known = keys.map { "“\($0)”" }.joined(separator: ", ")
            issues.append("names “\(value)”, which is not a value of \(targetLabel) (its values: \(known))")
        }
        return issues
    }

    /// Why a condition may not refer to `target` (itself, unknown, or later), if it may not.
    private func referenceIssue(_ target: String, questionID: String, position: Int, firstPosition: [String: Int]) -> String? {
        // Whether the study defines the variable is for the study to check (`SurveySetRules`).
        if let name = ParticipantVariableReference.name(in: target) {
            return QuestionIdentifier.isValid(name) ? nil : "refers to variable “\(name)”, which is not a plain name (\(QuestionIdentifier.rule))"
        }
        if target == questionID {
            return "refers to this question itself; it can only depend on earlier questions"
        }
        guard let targetPosition = firstPosition[target] else {
            guard let score = score(withID: target) else { return "refers to unknown question “\(target)”" }
            // A score can be used once every one of its items has been asked.
            let positions = score.items.compactMap { firstPosition[$0] }
            guard let last = positions.max(), last >= position else { return nil }
            return "refers to score “\(target)”, which uses \(SurveyQuestion.label(position: last, id: content[last].id)); "
                + "it can only depend on scores of earlier questions"
        }
        if targetPosition > position {
            return "refers to \(SurveyQuestion.label(position: targetPosition, id: target)), which comes later; it can only depend on earlier questions"
        }
        return nil
    }

    private func comparisonIssues(
        target: String, comparison: ComparisonOperator, value: Double,
        questionID: String, position: Int, firstPosition: [String: Int]
    ) -> [String] {
        if let reference = referenceIssue(target, questionID: questionID, position: position, firstPosition: firstPosition) {
            return [reference]
        }
        // A score compares as the number it is.
        guard let targetPosition = firstPosition[target] else { return [] }
        let targetLabel = SurveyQuestion.label(position: targetPosition, id: target)
        let question = content[targetPosition]
        guard question.canBeCompared else {
            return ["compares with \(targetLabel), a \(question.type.rawValue) question whose answers are not numbers, "
                + "so the comparison is always false"]
        }
        switch question.kind {
        case .radioButton, .checkbox, .people:
            return optionPositionIssues(value, comparison, count: question.comparableKeys.count, what: "options", targetLabel: targetLabel)
        case .tokens:
            return optionPositionIssues(
                value, comparison, count: question.comparableKeys.count, what: "suggested tokens", targetLabel: targetLabel)
        case .yesNo:
            guard comparison == .equal || comparison == .notEqual, value != 0, value != 1 else { return [] }
            return ["compares \(targetLabel) with \(SurveyMessages.number(value)), "
                + "but a yes/no answer compares as 1 (yes) or 0 (no)"]
        default:
            // Numbers (sliders, numbers, sound levels, numeric text) compare as they are.
            return []
        }
    }

    /// Choice answers compare by option position from 0, so `== 5` with three options never holds.
    private func optionPositionIssues(
        _ value: Double, _ comparison: ComparisonOperator, count: Int, what: String, targetLabel: String
    ) -> [String] {
        guard comparison == .equal || comparison == .notEqual else { return [] }
        guard value != value.rounded() || value < 0 || value >= Double(count) else { return [] }
        return ["compares \(targetLabel) with \(SurveyMessages.number(value)), but its answers compare by option position "
            + "and it has \(count) \(what), numbered 0 to \(count - 1)"]
    }
}
