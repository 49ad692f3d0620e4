import Foundation

/// The `question_type` names on the wire. Beiwe's names where Beiwe has the type, ours otherwise.
public enum QuestionType: String, Sendable, Hashable, Codable, CaseIterable {
    case infoTextBox = "info_text_box"
    case slider
    case radioButton = "radio_button"
    case checkbox
    case freeResponse = "free_response"
    case date
    case time
    case dateTime = "date_time"
    case yesNo = "yes_no"
    case number
    case tokens
    case people
    case location
    case photo
    case soundLevel = "sound_level"
    case audioRecording = "audio_recording"
}

/// Beiwe's `text_field_type` of a `free_response` question.
public enum TextFieldType: String, Sendable, Hashable, Codable, CaseIterable {
    case numeric = "NUMERIC"
    case singleLineText = "SINGLE_LINE_TEXT"
    case multiLineText = "MULTI_LINE_TEXT"
}

/// What a question asks for, with the parameters of its type.
///
/// The answer each kind takes (as a `JSONValue`, in `SubmittedAnswer.answer`):
/// - `infoTextBox`: none; the question text is the body shown. Always recorded as not presented.
/// - `slider`, `number`, `freeResponse(.numeric)`: a number (Reporter `numericResponse`).
/// - `radioButton`: the chosen option's key (its `value` if it has one, else its `text`), a string.
/// - `yesNo`: a Bool.
/// - `checkbox`, `people`: an array of option keys (Reporter `answeredOptions`, people `tokens`).
/// - `tokens`: an array of strings (Reporter `tokens`).
/// - `freeResponse(.singleLineText / .multiLineText)`: a string (Reporter `textResponse`).
/// - `location`: `{"latitude": …, "longitude": …, "place": "…"?}` (Reporter `locationResponse`).
/// - `date` `"YYYY-MM-DD"`, `time` `"HH:MM"`, `dateTime` `"YYYY-MM-DDTHH:MM"` (local wall clock).
/// - `photo`, `audioRecording`: a string reference to the uploaded blob.
/// - `soundLevel`: a number, in dB.
///
/// A skipped question is sent as `null` or left out; an empty string or empty array counts as
/// skipped too.
public enum QuestionKind: Sendable, Hashable {
    case infoTextBox
    case slider(SliderScale)
    case radioButton([ChoiceOption])
    case checkbox([ChoiceOption])
    case freeResponse(TextFieldType)
    case date
    case time
    case dateTime
    case yesNo
    case number(NumberRange)
    case tokens(TokenList)
    case people([ChoiceOption])
    case location
    case photo
    case soundLevel
    /// An audio recording of at most `maxDurationSeconds` (no limit when nil).
    case audioRecording(maxDurationSeconds: Double?)

    public var type: QuestionType {
        switch self {
        case .infoTextBox: .infoTextBox
        case .slider: .slider
        case .radioButton: .radioButton
        case .checkbox: .checkbox
        case .freeResponse: .freeResponse
        case .date: .date
        case .time: .time
        case .dateTime: .dateTime
        case .yesNo: .yesNo
        case .number: .number
        case .tokens: .tokens
        case .people: .people
        case .location: .location
        case .photo: .photo
        case .soundLevel: .soundLevel
        case .audioRecording: .audioRecording
        }
    }

    /// The options of a choice question (radio button, checkbox, people); empty for other kinds.
    public var options: [ChoiceOption] {
        switch self {
        case .radioButton(let options), .checkbox(let options), .people(let options): options
        default: []
        }
    }
}
