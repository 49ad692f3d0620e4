import Foundation

/// One question of a survey: `question_id` (non-empty, unique in the survey), `question_type`,
/// `question_text`, optional `display_if` skip logic, optional `required` (default false), and the
/// parameters of its type (see `QuestionKind`).
public struct SurveyQuestion: Sendable, Hashable {
    public var id: String
    /// The prompt; for an info text box, the body shown. May be given by language.
    public var text: LocalizedText
    public var kind: QuestionKind
    /// Shown only when this holds for the answers given so far; always shown when nil.
    public var displayIf: DisplayCondition?
    /// A shown question that must not be skipped.
    public var required: Bool
    /// Fields this version does not know, kept so that documents round-trip without loss.
    public var extraFields: [String: JSONValue]
    /// The object this question was read from, written back while the question is unchanged.
    public var asRead = KeptJSON()

    public init(
        id: String, text: LocalizedText, kind: QuestionKind,
        displayIf: DisplayCondition? = nil, required: Bool = false,
        extraFields: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.text = text
        self.kind = kind
        self.displayIf = displayIf
        self.required = required
        self.extraFields = extraFields
    }

    public var type: QuestionType { kind.type }

    /// The texts of the options, for exports ("question answer options" in Beiwe's CSV).
    public var optionTexts: [String] {
        if case .tokens(let list) = kind { return list.suggestions }
        return kind.options.map(\.text.text)
    }

    /// How messages name this question: `question 3 (“mood”)`, counting from 1.
    public static func label(position: Int, id: String?) -> String {
        guard let id, !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return "question \(position + 1) (without question_id)"
        }
        return "question \(position + 1) (“\(id)”)"
    }

    /// Whether a `display_if` comparison with this question's answer can ever hold: text, dates,
    /// times, places, media and tokens without suggestions compare as nothing.
    public var canBeCompared: Bool {
        switch kind {
        case .slider, .number, .soundLevel, .freeResponse(.numeric), .yesNo, .radioButton, .checkbox, .people: true
        case .tokens(let list): !list.suggestions.isEmpty
        default: false
        }
    }

    /// The numbers this question's answer compares as in skip logic (see `DisplayCondition`);
    /// empty for a missing answer or a kind without numeric meaning.
    public func comparableValues(of answer: JSONValue?) -> [Double] {
        guard let answer else { return [] }
        switch kind {
        case .slider, .number, .soundLevel, .freeResponse(.numeric):
            return answer.numberValue.map { [$0] } ?? []
        case .yesNo:
            return answer.boolValue.map { [$0 ? 1 : 0] } ?? []
        case .radioButton, .checkbox, .people, .tokens:
            return Self.positions(of: answer, in: comparableKeys)
        default:
            return []
        }
    }

    /// The values a condition may name this question's options by (`DisplayCondition.matches`):
    /// each option's stored value, or each suggested token; empty for other kinds.
    public var comparableKeys: [String] {
        switch kind {
        case .radioButton(let options), .checkbox(let options), .people(let options): options.map(\.key)
        case .tokens(let list): list.suggestions
        default: []
        }
    }

    /// The position (from 0) of the option stored as `value`, as comparisons count them.
    public func position(ofValue value: String) -> Int? {
        comparableKeys.firstIndex(of: value)
    }

    private static func positions(of answer: JSONValue, in keys: [String]) -> [Double] {
        let chosen = answer.arrayValue?.compactMap(\.stringValue) ?? answer.stringValue.map { [$0] } ?? []
        return chosen.compactMap { key in keys.firstIndex(of: key).map(Double.init) }
    }
}
