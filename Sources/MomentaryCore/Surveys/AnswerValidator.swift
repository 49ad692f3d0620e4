import Foundation

/// Checks a participant's answers against the survey (version) they answered.
///
/// The result has one entry per question, in survey order: answered (with the canonical value),
/// `noAnswerSelected` (shown but skipped) or `notPresented` (hidden by skip logic; info text
/// boxes too). Skip logic is evaluated in order against the answers already accepted, so an
/// invalid earlier answer counts as missing. Every error is collected before failing.
///
/// A skipped answer is `null`, left out, an empty array, or a string of only whitespace.
/// The survey is expected to be free of `problems()` (the editor refuses to save it otherwise).
public enum AnswerValidator {
    /// The longest free-text answer or place text accepted, in characters.
    public static let maxTextLength = 10_000
    /// The longest token accepted, in characters.
    public static let maxTokenLength = 200
    /// The longest photo or recording reference accepted, in characters.
    public static let maxReferenceLength = 256

    /// `variables` are the participant's (`var:` conditions); needed only when the survey names any.
    public static func validate(
        _ answers: [SubmittedAnswer], against survey: SurveyDocument, variables: [String: JSONValue] = [:]
    ) throws(AnswerValidationFailure) -> [ValidatedAnswer] {
        var errors: [AnswerValidationError] = []
        let given = indexAnswers(answers, survey: survey, errors: &errors)
        var accepted: [String: JSONValue] = [:]
        var results: [ValidatedAnswer] = []
        for question in survey.content {
            let answer = given[question.id]
            let status: AnswerStatus
            if question.type == .infoTextBox || !survey.isDisplayed(question, given: accepted, variables: variables) {
                if answer != nil {
                    let why = question.type == .infoTextBox
                        ? "is an info text box, which takes no answer"
                        : "was hidden by its display logic, so it cannot have an answer"
                    errors.append(AnswerValidationError(
                        questionID: question.id, reason: .notPresented, message: "Question \(quoted(question.id)) \(why)."))
                }
                status = .notPresented
            } else if let answer {
                do {
                    let value = try canonicalAnswer(answer, for: question)
                    accepted[question.id] = value
                    status = .answered(value)
                } catch {
                    errors.append(error)
                    status = .noAnswerSelected
                }
            } else {
                if question.required {
                    errors.append(AnswerValidationError(
                        questionID: question.id, reason: .requiredSkipped,
                        message: "Question \(quoted(question.id)) is required but was skipped."))
                }
                status = .noAnswerSelected
            }
            results.append(ValidatedAnswer(questionID: question.id, questionType: question.type, status: status))
        }
        guard errors.isEmpty else { throw AnswerValidationFailure(errors: errors) }
        return results
    }

    /// The answers that are not skipped, by question id; unknown and repeated ids become errors.
    private static func indexAnswers(
        _ answers: [SubmittedAnswer], survey: SurveyDocument, errors: inout [AnswerValidationError]
    ) -> [String: JSONValue] {
        let knownIDs = Set(survey.content.map(\.id))
        var seen: Set<String> = []
        var given: [String: JSONValue] = [:]
        for answer in answers {
            guard knownIDs.contains(answer.questionID) else {
                errors.append(AnswerValidationError(
                    questionID: answer.questionID, reason: .unknownQuestion,
                    message: "Question \(quoted(answer.questionID)) is not in this survey."))
                continue
            }
            guard seen.insert(answer.questionID).inserted else {
                errors.append(AnswerValidationError(
                    questionID: answer.questionID, reason: .duplicateAnswer,
                    message: "Question \(quoted(answer.questionID)) is answered more than once."))
                continue
            }
            if let value = answer.answer, !isSkipped(value) {
                given[answer.questionID] = value
            }
        }
        return given
    }

    /// A question id as error messages quote it (made only for a message: answers are many).
    private static func quoted(_ id: String) -> String { "“\(id)”" }

    static func isSkipped(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .array(let items): items.isEmpty
        // The first character settles most answers without trimming a copy.
        case .string(let text):
            text.unicodeScalars.first.map(CharacterSet.whitespacesAndNewlines.contains) ?? true
                && text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        default: false
        }
    }
}
