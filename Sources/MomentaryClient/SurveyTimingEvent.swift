import Foundation
import MomentaryCore

/// One row of Beiwe's `survey_timings` stream.
public struct SurveyTimingEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A survey became available (the beep's notification).
        case notified
        /// A question came on screen; the answer is the one it shows (blank or an earlier answer).
        case present
        /// A question left the screen; the answer is what the participant left in it.
        case unpresent
        /// The answer changed while on screen (sliders: once it rested 0.25 s).
        case changed
        case submitted
        /// The survey expired before it was submitted.
        case expired
    }

    public var timestamp: Date
    public var kind: Kind
    /// The question concerned; nil for events of the survey as a whole.
    public var question: SurveySessionQuestion?
    /// The answer at the time of the event; nil when blank.
    public var answer: JSONValue?

    public init(timestamp: Date, kind: Kind, question: SurveySessionQuestion? = nil, answer: JSONValue? = nil) {
        self.timestamp = timestamp
        self.kind = kind
        self.question = question
        self.answer = answer
    }
}

extension SurveyTimingEvent {
    /// The event as a response carries it (`timings`); nil for `notified`, which happened before
    /// the survey was opened and reaches the server as the beep's own delivery.
    public var wireTiming: SurveyTiming? {
        guard let event = SurveyTiming.Event(rawValue: kind.rawValue) else { return nil }
        return SurveyTiming(questionID: question?.id, event: event, at: timestamp, answer: answer)
    }

    /// Beiwe's header (seed 004); the server adds `survey_id` itself.
    public static let csvHeader = ["timestamp", "question id", "question type", "question text",
                                   "question answer options", "answer", "event"]

    /// The row's fields: milliseconds since 1970, then the question fields (blank for survey-wide
    /// events), the answer and the event name.
    public var csvFields: [String] {
        let milliseconds = Int64((timestamp.timeIntervalSince1970 * 1000).rounded())
        return [String(milliseconds), question?.id ?? "", question?.type ?? "", question?.text ?? "",
                question?.answerOptions ?? "", answer.map(Self.answerText) ?? "", kind.rawValue]
    }

    /// Answers as text: strings as they are, whole numbers without a decimal point, lists as
    /// `[a; b]` (Beiwe's style), anything else as compact JSON.
    static func answerText(_ answer: JSONValue) -> String {
        switch answer {
        case .null: return ""
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .array(let values): return "[" + values.map(answerText).joined(separator: "; ") + "]"
        case .object:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(answer)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }

    /// A whole `survey_timings` CSV file (header and rows, RFC 4180 quoting, CRLF-free).
    public static func csv(_ events: [SurveyTimingEvent]) -> String {
        ([csvHeader] + events.map(\.csvFields))
            .map { $0.map(csvEscaped).joined(separator: ",") }
            .joined(separator: "\n") + "\n"
    }

    static func csvEscaped(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
