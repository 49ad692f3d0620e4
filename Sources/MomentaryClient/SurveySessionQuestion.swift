import Foundation
import MomentaryCore

/// What a survey session needs to know about a question: enough to write Beiwe's timing rows and
/// to debounce sliders.
public struct SurveySessionQuestion: Sendable, Hashable {
    public var id: String
    /// The `question_type` name, e.g. `slider`, `radio_button`.
    public var type: String
    public var text: String
    /// Beiwe's "question answer options" column, e.g. `[Yes; No]`; empty when the type has none.
    public var answerOptions: String

    public init(id: String, type: String, text: String, answerOptions: String = "") {
        self.id = id
        self.type = type
        self.text = text
        self.answerOptions = answerOptions
    }

    public init(_ question: SurveyQuestion) {
        let options = question.optionTexts
        self.init(id: question.id, type: question.type.rawValue, text: question.text.text,
                  answerOptions: options.isEmpty ? "" : "[" + options.joined(separator: "; ") + "]")
    }

    /// Slider changes are debounced (Beiwe records a slider value once it rests for 0.25 s).
    public var isSlider: Bool { type == QuestionType.slider.rawValue }

    /// Info text boxes are shown but never answered, so they never appear in the answers.
    public var takesAnswer: Bool { type != QuestionType.infoTextBox.rawValue }
}
