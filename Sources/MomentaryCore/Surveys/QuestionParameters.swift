import Foundation

/// One option of a choice question: `{"text": "At home"}` as in Beiwe, optionally with a stable
/// `value` that answers use instead of the text (so the wording can change later).
public struct ChoiceOption: Sendable, Hashable {
    /// May be given by language; such an option needs a `value`, or what answers store would
    /// depend on the participant's language.
    public var text: LocalizedText
    public var value: String?
    /// Fields this version does not know, kept so that documents round-trip without loss.
    public var extraFields: [String: JSONValue]

    public init(_ text: LocalizedText, value: String? = nil, extraFields: [String: JSONValue] = [:]) {
        self.text = text
        self.value = value
        self.extraFields = extraFields
    }

    /// What an answer stores for this option: the `value` if set, otherwise the `text`.
    public var key: String { value ?? text.text }
}

/// A slider from `min` to `max` in steps of `step` (wire keys `min`, `max`, `step`, `min_label`,
/// `max_label`, `labels`). `labels`, when present, are shown evenly spaced from min to max.
public struct SliderScale: Sendable, Hashable {
    public var min: Double
    public var max: Double
    public var step: Double
    public var minLabel: LocalizedText?
    public var maxLabel: LocalizedText?
    public var labels: [LocalizedText]?

    public init(
        min: Double, max: Double, step: Double = 1,
        minLabel: LocalizedText? = nil, maxLabel: LocalizedText? = nil, labels: [LocalizedText]? = nil
    ) {
        self.min = min
        self.max = max
        self.step = step
        self.minLabel = minLabel
        self.maxLabel = maxLabel
        self.labels = labels
    }
}

/// Bounds of a `number` question, each optional (wire keys `min`, `max`, `step`). With a step,
/// answers must be `min + k·step` (or `k·step` when there is no minimum).
public struct NumberRange: Sendable, Hashable {
    public var min: Double?
    public var max: Double?
    public var step: Double?

    public init(min: Double? = nil, max: Double? = nil, step: Double? = nil) {
        self.min = min
        self.max = max
        self.step = step
    }
}

/// A tokens question such as "What are you doing?" (wire keys `suggested_tokens`,
/// `allows_free_entry` (default true), `max_count` (no limit when absent)).
public struct TokenList: Sendable, Hashable {
    public var suggestions: [String]
    public var allowsFreeEntry: Bool
    public var maxCount: Int?

    public init(suggestions: [String], allowsFreeEntry: Bool = true, maxCount: Int? = nil) {
        self.suggestions = suggestions
        self.allowsFreeEntry = allowsFreeEntry
        self.maxCount = maxCount
    }
}
