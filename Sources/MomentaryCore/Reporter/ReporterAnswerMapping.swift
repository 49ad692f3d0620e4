import Foundation

/// How a Momentary answer is written in Reporter's shapes, and read back (seed 002):
///
/// | question | Reporter shape |
/// |---|---|
/// | slider, number, numeric free text, sound level | `numericResponse` (the number as text) |
/// | single choice, multiple choice | `answeredOptions` (the options' texts) |
/// | yes/no | `answeredOptions`: `["Yes"]` or `["No"]` |
/// | tokens, people | `tokens` (people by their options' texts) |
/// | free text, date, time, date-time | `textResponse` |
/// | location | `locationResponse` (`text` is the place; the fix carries the answer's time) |
///
/// A question shown and skipped is written as its prompt alone, as Reporter does; Reporter has no
/// shape for photos or audio recordings, which are left out.
public enum ReporterAnswerMapping {
    static let yes = "Yes"
    static let no = "No"

    /// The Reporter answer for a stored answer of `question`, or nil when Reporter would write none.
    /// `answeredAt` dates a location answer's fix.
    public static func reporterAnswer(for question: SurveyQuestion, value: JSONValue, answeredAt: ReporterDate) -> ReporterAnswer? {
        switch question.kind {
        case .slider, .number, .soundLevel, .freeResponse(.numeric):
            return value.numberValue.map { .number(SurveyMessages.number($0)) }
        case .radioButton(let options):
            return value.stringValue.map { .options([text(ofKey: $0, in: options)]) }
        case .checkbox(let options):
            return value.arrayValue.map { .options($0.compactMap(\.stringValue).map { text(ofKey: $0, in: options) }) }
        case .people(let options):
            return value.arrayValue.map { .tokens($0.compactMap(\.stringValue).map { text(ofKey: $0, in: options) }) }
        case .yesNo:
            return value.boolValue.map { .options([$0 ? yes : no]) }
        case .tokens:
            return value.arrayValue.map { .tokens($0.compactMap(\.stringValue)) }
        case .freeResponse, .date, .time, .dateTime:
            return value.stringValue.map { .text($0) }
        case .location:
            guard let object = value.objectValue, let latitude = object["latitude"]?.numberValue,
                  let longitude = object["longitude"]?.numberValue
            else { return nil }
            return .location(ReporterLocationResponse(
                text: object["place"]?.stringValue,
                location: ReporterLocation(latitude: latitude, longitude: longitude, timestamp: answeredAt)))
        case .infoTextBox, .photo, .audioRecording:
            return nil
        }
    }

    /// The answer to submit for `question` from a Reporter answer, or nil when the shape does not
    /// fit the question (the answer then counts as not given).
    public static func answerValue(_ answer: ReporterAnswer, for question: SurveyQuestion) -> JSONValue? {
        switch (answer, question.kind) {
        case (.number(let text), _):
            return Double(text).map(JSONValue.number)
        case (.options(let texts), .yesNo):
            return texts.count == 1 ? .bool(texts[0] == yes) : nil
        case (.options(let texts), .radioButton(let options)):
            return texts.count == 1 ? .string(key(ofText: texts[0], in: options)) : nil
        case (.options(let texts), .checkbox(let options)), (.tokens(let texts), .people(let options)):
            return .array(texts.map { .string(key(ofText: $0, in: options)) })
        case (.tokens(let tokens), .tokens):
            return .array(tokens.map(JSONValue.string))
        case (.text(let text), _):
            return .string(text)
        case (.location(let place), .location):
            guard let fix = place.location else { return nil }
            var object: [String: JSONValue] = ["latitude": .number(fix.latitude), "longitude": .number(fix.longitude)]
            if let text = place.text { object["place"] = .string(text) }
            return .object(object)
        default:
            return nil
        }
    }

    private static func text(ofKey key: String, in options: [ChoiceOption]) -> String {
        options.first { $0.key == key }?.text.text ?? key
    }

    private static func key(ofText text: String, in options: [ChoiceOption]) -> String {
        options.first { $0.text.text == text }?.key ?? text
    }
}
