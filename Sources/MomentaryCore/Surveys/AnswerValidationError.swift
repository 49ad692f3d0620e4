import Foundation

/// One thing wrong with a set of submitted answers.
public struct AnswerValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        case unknownQuestion = "unknown_question"
        case duplicateAnswer = "duplicate_answer"
        /// An answer to a question the skip logic hid (or to an info text box, which has none).
        case notPresented = "not_presented"
        case wrongType = "wrong_type"
        case outOfRange = "out_of_range"
        case unknownOption = "unknown_option"
        case duplicateChoice = "duplicate_choice"
        case tooManyTokens = "too_many_tokens"
        case tooLong = "too_long"
        case requiredSkipped = "required_skipped"
        case malformedDate = "malformed_date"
    }

    public let questionID: String
    public let reason: Reason
    /// A sentence naming the question and what is wrong.
    public let message: String

    public init(questionID: String, reason: Reason, message: String) {
        self.questionID = questionID
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}

/// Submitted answers that do not fit the survey; `errors` lists every problem found, in survey order
/// (answers to unknown questions first).
public struct AnswerValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public let errors: [AnswerValidationError]

    public init(errors: [AnswerValidationError]) {
        self.errors = errors
    }

    public var description: String { errors.map(\.message).joined(separator: " ") }
}
