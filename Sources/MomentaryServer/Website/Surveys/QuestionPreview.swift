import MomentaryCore

/// How one question will look, as plain HTML controls the template draws by `control`.
struct QuestionPreview: Encodable {
    let number: Int
    let id: String
    let text: String
    let type: String
    /// One of: info, choice, multiple, slider, text, number, date, time, datetime, yesno, capture.
    let control: String
    let options: [String]
    let minimum: String
    let maximum: String
    let minLabel: String
    let maxLabel: String
    let conditional: Bool

    /// Every question of `document` (none when it cannot be read), numbered from 1.
    static func all(of document: SurveyDocument?) -> [QuestionPreview] {
        (document?.content ?? []).enumerated().map { index, question in QuestionPreview(question, number: index + 1) }
    }

    init(_ question: SurveyQuestion, number: Int) {
        self.number = number
        id = question.id
        text = question.text
        type = question.type.rawValue
        options = question.optionTexts
        conditional = question.displayIf != nil
        var minimum = "", maximum = "", minLabel = "", maxLabel = ""
        switch question.kind {
        case .infoTextBox: control = "info"
        case .radioButton: control = "choice"
        case .checkbox, .people: control = "multiple"
        case .slider(let scale):
            control = "slider"
            minimum = SurveyMessages.number(scale.min)
            maximum = SurveyMessages.number(scale.max)
            minLabel = scale.minLabel ?? ""
            maxLabel = scale.maxLabel ?? ""
        case .freeResponse, .tokens: control = "text"
        case .number(let range):
            control = "number"
            minimum = range.min.map(SurveyMessages.number) ?? ""
            maximum = range.max.map(SurveyMessages.number) ?? ""
        case .date: control = "date"
        case .time: control = "time"
        case .dateTime: control = "datetime"
        case .yesNo: control = "yesno"
        case .location, .photo, .soundLevel, .audioRecording: control = "capture"
        }
        self.minimum = minimum
        self.maximum = maximum
        self.minLabel = minLabel
        self.maxLabel = maxLabel
    }
}
