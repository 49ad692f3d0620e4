import MomentaryCore
import Vapor

/// The survey builder's form for one question. It has no rules of its own: it writes the fields
/// as the question's JSON object and hands that to the survey document's reader, so a question
/// built here is checked exactly as one typed in the JSON editor or imported.
struct QuestionForm: Content {
    var version: Int?
    var questionID: String?
    var text: String?
    var required: String?
    /// One option a line: `Text`, or `Text = value` to store another value than the text.
    var options: String?
    var min: String?
    var max: String?
    var step: String?
    var minLabel: String?
    var maxLabel: String?
    var textFieldType: String?
    var suggestions: String?
    var allowsFreeEntry: String?
    var maxCount: String?
    var maxDurationSeconds: String?
    /// `display_if` as up to two comparisons with earlier answers, joined by `and` or `or`.
    var conditionQuestion: String?
    var conditionOperator: String?
    var conditionValue: String?
    var conditionJoin: String?
    var conditionQuestion2: String?
    var conditionOperator2: String?
    var conditionValue2: String?
    /// The study's languages (the first the default), and the texts in the others.
    var languages: [String] = StudyLanguages.default
    var translations: [QuestionTranslationFields] = []

    enum CodingKeys: String, CodingKey {
        case version, text, required, options, min, max, step, suggestions
        case questionID = "question_id", minLabel = "min_label", maxLabel = "max_label"
        case textFieldType = "text_field_type", allowsFreeEntry = "allows_free_entry", maxCount = "max_count"
        case maxDurationSeconds = "max_duration_seconds", conditionQuestion = "condition_question"
        case conditionOperator = "condition_operator", conditionValue = "condition_value", conditionJoin = "condition_join"
        case conditionQuestion2 = "condition_question_2", conditionOperator2 = "condition_operator_2"
        case conditionValue2 = "condition_value_2"
    }

    /// The question as its JSON object; `kept` holds what the form cannot show of the question
    /// being edited (unknown fields, a condition it cannot show), which stays as it was.
    func json(type: QuestionType, keeping kept: SurveyQuestion?) throws(SurveyFormatError) -> [String: JSONValue] {
        var object = kept?.extraFields ?? [:]
        object["question_type"] = .string(type.rawValue)
        object["question_id"] = .string(Self.trimmed(questionID) ?? "")
        object["question_text"] = Self.localized(
            text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "", languages: languages, translations: translations, \.text)
        if required == "on" { object["required"] = .bool(true) }
        if let condition = try condition() {
            object["display_if"] = condition
        } else if let kept, let displayIf = kept.displayIf, Self.shown(displayIf) == nil {
            object["display_if"] = displayIf.json
        }
        for (key, value) in parameters(of: type) { object[key] = value }
        return object
    }

    private func parameters(of type: QuestionType) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        func number(_ key: String, _ text: String?) {
            // As typed: the reader says which field is not a number.
            if let text = Self.trimmed(text) { fields[key] = Double(text).map(JSONValue.number) ?? .string(text) }
        }
        switch type {
        case .slider:
            number("min", min); number("max", max); number("step", step)
            if let label = Self.trimmed(minLabel) {
                fields["min_label"] = Self.localized(label, languages: languages, translations: translations, \.minLabel)
            }
            if let label = Self.trimmed(maxLabel) {
                fields["max_label"] = Self.localized(label, languages: languages, translations: translations, \.maxLabel)
            }
        case .number:
            number("min", min); number("max", max); number("step", step)
        case .radioButton, .checkbox, .people:
            fields["answers"] = Self.localizedOptions(Self.lines(options), languages: languages, translations: translations)
        case .freeResponse:
            fields["text_field_type"] = .string(Self.trimmed(textFieldType) ?? TextFieldType.singleLineText.rawValue)
        case .tokens:
            fields["suggested_tokens"] = .array(Self.lines(suggestions).map(JSONValue.string))
            fields["allows_free_entry"] = .bool(allowsFreeEntry == "on")
            number("max_count", maxCount)
        case .audioRecording:
            number("max_duration_seconds", maxDurationSeconds)
        case .infoTextBox, .date, .time, .dateTime, .yesNo, .location, .photo, .soundLevel:
            break
        }
        return fields
    }

    private func condition() throws(SurveyFormatError) -> JSONValue? {
        let first = try Self.comparison(conditionQuestion, conditionOperator, conditionValue)
        let second = try Self.comparison(conditionQuestion2, conditionOperator2, conditionValue2)
        guard let first, let second else { return (first ?? second)?.json }
        switch conditionJoin {
        case "and": return DisplayCondition.and([first, second]).json
        case "or": return DisplayCondition.or([first, second]).json
        default: throw SurveyFormatError("Choose whether both comparisons must hold (and) or either one (or).")
        }
    }

    /// One comparison of the form, or nil when no question is chosen for it.
    private static func comparison(_ question: String?, _ operation: String?, _ value: String?) throws(SurveyFormatError) -> DisplayCondition? {
        guard let target = trimmed(question) else { return nil }
        guard let comparison = ComparisonOperator(rawValue: operation ?? "") else {
            throw SurveyFormatError("Choose how the answer to “\(target)” is compared.")
        }
        guard let text = trimmed(value) else {
            throw SurveyFormatError("The condition needs a number, or an option's value, to compare the answer to “\(target)” with.")
        }
        // A number compares as a number or a position; anything else names an option by its value.
        if let number = Double(text), number.isFinite {
            return .compare(questionID: target, comparison, number)
        }
        return .matches(questionID: target, comparison, text)
    }

    /// The form filled in from an existing question.
    init(_ question: SurveyQuestion, version: Int, languages: [String]) {
        self.version = version
        self.languages = languages
        translations = QuestionTranslationFields.of(question, languages: languages)
        questionID = question.id
        text = question.text.given(in: languages[0], languages: languages) ?? question.text.text
        required = question.required ? "on" : nil
        switch question.kind {
        case .slider(let scale):
            min = SurveyMessages.number(scale.min); max = SurveyMessages.number(scale.max); step = SurveyMessages.number(scale.step)
            minLabel = scale.minLabel.map { $0.given(in: languages[0], languages: languages) ?? $0.text }
            maxLabel = scale.maxLabel.map { $0.given(in: languages[0], languages: languages) ?? $0.text }
        case .number(let range):
            min = range.min.map(SurveyMessages.number); max = range.max.map(SurveyMessages.number); step = range.step.map(SurveyMessages.number)
        case .radioButton(let choices), .checkbox(let choices), .people(let choices):
            options = choices.map { option in
                let text = option.text.given(in: languages[0], languages: languages) ?? option.text.text
                return option.value.map { $0 == text ? text : "\(text) = \($0)" } ?? text
            }.joined(separator: "\n")
        case .freeResponse(let fieldType):
            textFieldType = fieldType.rawValue
        case .tokens(let list):
            suggestions = list.suggestions.joined(separator: "\n")
            allowsFreeEntry = list.allowsFreeEntry ? "on" : nil
            maxCount = list.maxCount.map(String.init)
        case .audioRecording(let seconds):
            maxDurationSeconds = seconds.map(SurveyMessages.number)
        case .infoTextBox, .date, .time, .dateTime, .yesNo, .location, .photo, .soundLevel:
            break
        }
        if let shown = question.displayIf.flatMap(Self.shown) {
            let rows = shown.comparisons.map(Self.fields)
            (conditionQuestion, conditionOperator, conditionValue) = rows[0]
            if rows.count == 2 {
                (conditionQuestion2, conditionOperator2, conditionValue2) = rows[1]
                conditionJoin = shown.join
            }
        }
    }

    /// A comparison as the form's three fields.
    private static func fields(_ comparison: DisplayCondition) -> (String?, String?, String?) {
        switch comparison {
        case .compare(let target, let operation, let value): (target, operation.rawValue, SurveyMessages.number(value))
        case .matches(let target, let operation, let value): (target, operation.rawValue, value)
        default: (nil, nil, nil)
        }
    }

    /// An empty form for a new question.
    init(version: Int, languages: [String]) {
        self.version = version
        self.languages = languages
        translations = languages.dropFirst().map(QuestionTranslationFields.init(tag:))
        allowsFreeEntry = "on"
    }

    /// The condition as the form shows it (one comparison, or two joined by and/or), or nil when
    /// the form cannot show it and keeps it as it is.
    static func shown(_ condition: DisplayCondition) -> (comparisons: [DisplayCondition], join: String?)? {
        func isComparison(_ node: DisplayCondition) -> Bool {
            switch node {
            case .compare, .matches: true
            default: false
            }
        }
        switch condition {
        case .compare, .matches: return ([condition], nil)
        case .and(let nodes) where nodes.count == 2 && nodes.allSatisfy(isComparison): return (nodes, "and")
        case .or(let nodes) where nodes.count == 2 && nodes.allSatisfy(isComparison): return (nodes, "or")
        default: return nil
        }
    }

    private static func trimmed(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    private static func lines(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
