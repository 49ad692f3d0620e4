import Foundation

/// One answer as a participant app sends it in `POST /api/v1/responses`:
/// `{"question_id": "happy", "answer": 72}`. A `null` or missing answer means skipped; see
/// `QuestionKind` for the shape of each kind's answer.
public struct SubmittedAnswer: Codable, Sendable, Hashable {
    public var questionID: String
    public var answer: JSONValue?

    public init(questionID: String, answer: JSONValue?) {
        self.questionID = questionID
        self.answer = answer
    }

    enum CodingKeys: String, CodingKey {
        case questionID = "question_id"
        case answer
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        questionID = try container.decode(String.self, forKey: .questionID)
        // `decodeIfPresent` reads JSON null as nil, so "skipped" has one spelling in memory.
        answer = try container.decodeIfPresent(JSONValue.self, forKey: .answer)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(questionID, forKey: .questionID)
        try container.encode(answer ?? .null, forKey: .answer)
    }
}
