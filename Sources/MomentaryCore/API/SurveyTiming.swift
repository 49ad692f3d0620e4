import Foundation

/// One of Beiwe's survey timing events, sent with the response it belongs to
/// (`timings` in `POST /api/v1/responses`): when each question came on screen, changed, left,
/// and when the survey was submitted or expired.
public struct SurveyTiming: Codable, Sendable, Hashable {
    public enum Event: String, Codable, Sendable, Hashable, CaseIterable {
        case present, unpresent, changed, submitted, expired
    }

    /// The question concerned; nil for events of the whole survey (`submitted`, `expired`).
    public var questionID: String?
    public var event: Event
    public var at: Date
    /// The answer on screen at that moment; nil when blank.
    public var answer: JSONValue?

    public init(questionID: String?, event: Event, at: Date, answer: JSONValue? = nil) {
        self.questionID = questionID
        self.event = event
        self.at = at
        self.answer = answer
    }

    enum CodingKeys: String, CodingKey {
        case questionID = "question_id"
        case event, at, answer
    }

    /// More events than any survey session produces: a bound on what one response may carry.
    public static let maximumCount = 5_000
    static let maximumQuestionIDLength = 200
}
