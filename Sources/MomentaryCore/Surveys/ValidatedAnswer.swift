import Foundation

/// What became of one question of a submitted survey.
public enum AnswerStatus: Sendable, Hashable {
    /// Answered; the value in its canonical shape (see `QuestionKind`).
    case answered(JSONValue)
    /// Shown but skipped: Beiwe's `NO_ANSWER_SELECTED`.
    case noAnswerSelected
    /// Hidden by skip logic, or an info text box: Beiwe's `NOT_PRESENTED`.
    case notPresented

    public static let noAnswerSelectedMarker = "NO_ANSWER_SELECTED"
    public static let notPresentedMarker = "NOT_PRESENTED"

    /// The answer, if there is one.
    public var value: JSONValue? {
        if case .answered(let value) = self { value } else { nil }
    }

    /// Beiwe's marker for an answer-less status, for the `answer` column of its CSV files.
    public var beiweMarker: String? {
        switch self {
        case .answered: nil
        case .noAnswerSelected: Self.noAnswerSelectedMarker
        case .notPresented: Self.notPresentedMarker
        }
    }
}

/// One question of a survey with what the participant did with it; `AnswerValidator` returns
/// one per question, in survey order.
public struct ValidatedAnswer: Sendable, Hashable {
    public let questionID: String
    public let questionType: QuestionType
    public let status: AnswerStatus

    public init(questionID: String, questionType: QuestionType, status: AnswerStatus) {
        self.questionID = questionID
        self.questionType = questionType
        self.status = status
    }
}
