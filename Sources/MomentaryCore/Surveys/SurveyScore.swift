import Foundation

/// A number computed from a response's answers, declared in the survey's `scores` list:
/// `{"id": "pa_mean", "mean": ["pa1", "pa2", "pa3"], "min_answered": 2, "reverse": ["pa2"]}`.
///
/// Exactly one of `sum`, `mean`, `count`, `min`, `max` names the items. An item is a question
/// with one number per answer, the number `display_if` compares it as: sliders, numbers, sound
/// levels and numeric text as given, yes 1 / no 0, a radio button's option position from 0.
/// A reversed item counts as `low + high − value` over its range (a slider's or number's min and
/// max, a radio button's first and last position, 0–1 for yes/no).
///
/// The score exists only when at least `min_answered` items were answered (default: every item;
/// for `count`, none); otherwise it is missing. `count` is how many items were answered.
public struct SurveyScore: Sendable, Hashable {
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case sum, mean, count, min, max
    }

    public var id: String
    public var operation: Operation
    public var items: [String]
    public var reversed: Set<String>
    public var minAnswered: Int
    /// What the score means: the codebook's text, and the name participants read above its
    /// charts when it is the study's feedback subject (then in every study language).
    public var label: LocalizedText?

    public init(
        id: String, operation: Operation, items: [String], reversed: Set<String> = [], minAnswered: Int? = nil, label: LocalizedText? = nil
    ) {
        self.id = id
        self.operation = operation
        self.items = items
        self.reversed = reversed
        self.minAnswered = minAnswered ?? (operation == .count ? 0 : items.count)
        self.label = label
    }

    /// How the score is computed, for the codebook: `mean of pa1, pa2, pa3 (pa2 reversed; at least 2 answered)`.
    public var summary: String {
        var notes: [String] = []
        let reversedItems = items.filter(reversed.contains)
        if !reversedItems.isEmpty { notes.append("\(reversedItems.joined(separator: ", ")) reversed") }
        if minAnswered > 0 && minAnswered < items.count { notes.append("at least \(minAnswered) answered") }
        let what = operation == .count ? "count of answered" : operation.rawValue + " of"
        return "\(what) \(items.joined(separator: ", "))" + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }

    /// The lowest and highest value the score can take, which charts draw it against; nil when
    /// an item has no range (a number question without min and max, numeric text, a sound level).
    public func range(in survey: SurveyDocument) -> (low: Double, high: Double)? {
        if operation == .count { return (0, Double(items.count)) }
        var ranges: [(low: Double, high: Double)] = []
        for item in items {
            guard let range = survey.question(withID: item)?.scoreRange else { return nil }
            ranges.append(range)
        }
        switch operation {
        case .sum: return (ranges.map(\.low).reduce(0, +), ranges.map(\.high).reduce(0, +))
        default: return ranges.isEmpty ? nil : (ranges.map(\.low).min()!, ranges.map(\.high).max()!)
        }
    }

    /// The score of `answers` (question id → canonical answer; skipped questions absent), or nil
    /// when too few items were answered.
    public func value(given answers: [String: JSONValue], in survey: SurveyDocument) -> Double? {
        var numbers: [Double] = []
        for item in items {
            guard let question = survey.question(withID: item), let number = question.scoreNumber(of: answers[item]) else { continue }
            if reversed.contains(item), let range = question.scoreRange {
                numbers.append(range.low + range.high - number)
            } else {
                numbers.append(number)
            }
        }
        guard numbers.count >= minAnswered else { return nil }
        switch operation {
        case .count: return Double(numbers.count)
        // Added in item order, so that JavaScript, adding in the same order, gets the same bits.
        case .sum: return numbers.reduce(0, +)
        case .mean: return numbers.isEmpty ? nil : numbers.reduce(0, +) / Double(numbers.count)
        case .min: return numbers.min()
        case .max: return numbers.max()
        }
    }
}

extension SurveyQuestion {
    /// Whether a score may use this question: it has exactly one number per answer.
    public var isScorable: Bool {
        switch kind {
        case .slider, .number, .soundLevel, .freeResponse(.numeric), .yesNo, .radioButton: true
        default: false
        }
    }

    /// The number this question's answer counts as in a score; nil when missing or not scorable.
    public func scoreNumber(of answer: JSONValue?) -> Double? {
        isScorable ? comparableValues(of: answer).first : nil
    }

    /// The lowest and highest number an answer can count as, which reverse-scoring needs.
    public var scoreRange: (low: Double, high: Double)? {
        switch kind {
        case .slider(let scale): (scale.min, scale.max)
        case .number(let range): range.min.flatMap { low in range.max.map { (low, $0) } }
        case .radioButton(let options): options.isEmpty ? nil : (0, Double(options.count - 1))
        case .yesNo: (0, 1)
        default: nil
        }
    }
}
