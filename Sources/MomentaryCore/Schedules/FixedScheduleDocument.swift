import Foundation

/// A fixed schedule as edited by the website and the API: `{"rules": [rule, …]}`, optionally
/// with `"answer_window_minutes"`, which wins over the study's for this schedule's beeps.
/// The rules combine as a union; see `FixedScheduleRule` for their shapes.
public struct FixedScheduleDocument: Sendable, Hashable {
    public var rules: [FixedScheduleRule]
    /// How long this schedule's beeps may be begun (`AnswerWindow.minutesRange`); nil: the study's.
    public var answerWindowMinutes: Int?

    public init(rules: [FixedScheduleRule], answerWindowMinutes: Int? = nil) {
        self.rules = rules
        self.answerWindowMinutes = answerWindowMinutes
    }

    /// Decodes and validates a document; every failure is a `FixedScheduleError` with a clear message.
    public static func parse(_ json: Data) throws(FixedScheduleError) -> FixedScheduleDocument {
        do {
            return try JSONDecoder().decode(FixedScheduleDocument.self, from: json)
        } catch let error as FixedScheduleError {
            throw error
        } catch {
            throw FixedScheduleError("the schedule is not valid JSON")
        }
    }
}

extension FixedScheduleDocument: Codable {
    public init(from decoder: Decoder) throws {
        let document = try StrictJSONObject(decoder, example: #"{"rules": []}"#)
        try document.rejectUnknownKeys(allowed: ["rules", "answer_window_minutes"])
        guard document.has("rules") else {
            throw FixedScheduleError("the schedule is missing “rules”, e.g. {\"rules\": []}")
        }
        let container = try decoder.container(keyedBy: StrictJSONObject.Key.self)
        var list: UnkeyedDecodingContainer
        do {
            list = try container.nestedUnkeyedContainer(forKey: StrictJSONObject.Key("rules"))
        } catch {
            throw FixedScheduleError("“rules” must be a list of rules")
        }
        var rules = [FixedScheduleRule]()
        while !list.isAtEnd {
            let position = rules.count + 1
            do {
                rules.append(try list.decode(FixedScheduleRule.self))
            } catch let error as FixedScheduleError {
                throw FixedScheduleError(rule: position, error.message)
            } catch {
                throw FixedScheduleError(rule: position, "could not be read as a rule")
            }
        }
        self.rules = rules
        if document.has("answer_window_minutes") {
            let minutes = try document.int("answer_window_minutes", example: #"{"rules": [], "answer_window_minutes": 30}"#)
            guard AnswerWindow.minutesRange.contains(minutes) else {
                throw FixedScheduleError("“answer_window_minutes” must be \(AnswerWindow.minutesRange.lowerBound) to "
                    + "\(AnswerWindow.minutesRange.upperBound) minutes, not \(minutes); leave it out to use the study's")
            }
            answerWindowMinutes = minutes
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: StrictJSONObject.Key.self)
        try container.encode(rules, forKey: StrictJSONObject.Key("rules"))
        try container.encodeIfPresent(answerWindowMinutes, forKey: StrictJSONObject.Key("answer_window_minutes"))
    }
}
