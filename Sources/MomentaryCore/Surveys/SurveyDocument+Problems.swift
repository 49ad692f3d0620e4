import Foundation

extension SurveyDocument {
    /// Everything wrong with this document, in question order, each naming the question by
    /// position and id. Empty when the survey can be used.
    public func problems() -> [SurveyProblem] {
        var problems: [SurveyProblem] = []
        if content.isEmpty {
            problems.append(SurveyProblem(questionNumber: nil, questionID: nil, message: "The survey has no questions."))
        }
        // Known fields read from the extras (`scores`, `randomize_groups`, `follow_ups`) are checked by their own readers.
        for key in extraFields.keys.sorted() where !SurveyFieldNames.document.contains(key) {
            if let issue = SurveyFieldNames.issue(with: key, known: SurveyFieldNames.document, owner: "a survey") {
                problems.append(SurveyProblem(questionNumber: nil, questionID: nil, message: "The survey: \(issue)."))
            }
        }
        var firstPosition: [String: Int] = [:]
        for (position, question) in content.enumerated() where firstPosition[question.id] == nil {
            firstPosition[question.id] = position
        }
        for (position, question) in content.enumerated() {
            let issues = questionIssues(question, at: position, firstPosition: firstPosition)
                + displayLogicIssues(of: question, at: position, firstPosition: firstPosition)
                + pipingIssues(of: question, at: position, firstPosition: firstPosition)
            let label = SurveyMessages.capitalizingFirst(SurveyQuestion.label(position: position, id: question.id))
            let hasID = !question.id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            problems += issues.map {
                SurveyProblem(questionNumber: position + 1, questionID: hasID ? question.id : nil, message: "\(label): \($0).")
            }
        }
        problems += (scoreProblems() + orderProblems()).map { SurveyProblem(questionNumber: nil, questionID: nil, message: $0) }
        problems += followUpProblems()
        problems += (timings?.issues() ?? []).map {
            SurveyProblem(questionNumber: nil, questionID: nil, message: $0)
        }
        return problems
    }

    private func questionIssues(_ question: SurveyQuestion, at position: Int, firstPosition: [String: Int]) -> [String] {
        var issues: [String] = []
        if question.id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            issues.append("question_id is empty")
        } else if let first = firstPosition[question.id], first != position {
            issues.append("question_id “\(question.id)” is already used by question \(first + 1)")
        } else if let issue = QuestionIdentifier.issue(with: question.id) {
            issues.append(issue)
        }
        if question.text.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            issues.append(question.type == .infoTextBox ? "info text box has no body text" : "question_text is empty")
        }
        issues += question.texts.flatMap { part, text in
            TextLimits.problems(text, limit: part == "question_text" ? TextLimits.questionText : TextLimits.optionText, label: part)
        }
        if question.required && question.type == .infoTextBox {
            issues.append("an info text box takes no answer, so it cannot be required")
        }
        issues += question.kind.parameterIssues()
        issues += fieldIssues(question)
        return issues
    }

    /// Misspelt fields, and fields of other question types, which would otherwise do nothing.
    private func fieldIssues(_ question: SurveyQuestion) -> [String] {
        let known = SurveyFieldNames.question.union(SurveyFieldNames.parameters(of: question.type))
        let otherTypes = QuestionType.allCases.reduce(into: Set<String>()) { $0.formUnion(SurveyFieldNames.parameters(of: $1)) }
            .subtracting(known)
        var issues = question.extraFields.keys.sorted().compactMap {
            SurveyFieldNames.issue(with: $0, known: known, usedElsewhere: otherTypes, owner: "a \(question.type.rawValue) question")
        }
        for (index, option) in question.kind.options.enumerated() {
            for key in option.extraFields.keys.sorted() {
                if let issue = SurveyFieldNames.issue(with: key, known: SurveyFieldNames.option, owner: "an option") {
                    issues.append("option \(index + 1) in “answers”: \(issue)")
                }
            }
        }
        return issues
    }
}
