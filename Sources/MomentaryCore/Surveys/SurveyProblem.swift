import Foundation

/// One thing wrong with a survey document, for the editor to list.
public struct SurveyProblem: Sendable, Hashable, CustomStringConvertible {
    /// The question's position, counting from 1 as the editor shows it; nil for the whole survey.
    public let questionNumber: Int?
    public let questionID: String?
    /// A full sentence that names the question, e.g.
    /// `Question 4 (“vehicle”): display_if refers to question 6 (“where”), which comes later.`
    public let message: String

    public init(questionNumber: Int?, questionID: String?, message: String) {
        self.questionNumber = questionNumber
        self.questionID = questionID
        self.message = message
    }

    public var description: String { message }
}
