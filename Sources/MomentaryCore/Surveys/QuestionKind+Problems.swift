import Foundation

extension QuestionKind {
    /// What is wrong with the parameters of this kind, one phrase each (without the question name).
    func parameterIssues() -> [String] {
        switch self {
        case .slider(let scale): Self.sliderIssues(scale)
        case .number(let range): Self.numberIssues(range)
        case .radioButton(let options), .checkbox(let options), .people(let options): Self.optionIssues(options)
        case .tokens(let list): Self.tokenIssues(list)
        case .audioRecording(let maxDuration?) where maxDuration <= 0:
            ["max_duration_seconds must be greater than 0, found \(SurveyMessages.number(maxDuration))"]
        default: []
        }
    }

    private static func sliderIssues(_ scale: SliderScale) -> [String] {
        var issues: [String] = []
        if scale.min >= scale.max {
            let (min, max) = (SurveyMessages.number(scale.min), SurveyMessages.number(scale.max))
            issues.append("slider min (\(min)) must be less than max (\(max))")
        }
        if scale.step <= 0 {
            issues.append("slider step must be greater than 0, found \(SurveyMessages.number(scale.step))")
        } else if scale.min < scale.max, !isWholeMultiple(scale.max - scale.min, of: scale.step) {
            issues.append("slider step \(SurveyMessages.number(scale.step)) does not divide the range "
                + "\(SurveyMessages.number(scale.min))–\(SurveyMessages.number(scale.max)), so the maximum cannot be chosen")
        }
        if let labels = scale.labels, labels.count < 2 {
            issues.append("slider labels must list at least 2 labels (from min to max), found \(labels.count)")
        }
        return issues
    }

    private static func numberIssues(_ range: NumberRange) -> [String] {
        var issues: [String] = []
        if let min = range.min, let max = range.max, min > max {
            let (minText, maxText) = (SurveyMessages.number(min), SurveyMessages.number(max))
            issues.append("number min (\(minText)) must not be greater than max (\(maxText))")
        }
        if let step = range.step, step <= 0 {
            issues.append("number step must be greater than 0, found \(SurveyMessages.number(step))")
        }
        return issues
    }

    private static func optionIssues(_ options: [ChoiceOption]) -> [String] {
        guard !options.isEmpty else { return ["has no options: “answers” must list at least one {\"text\": …}"] }
        var issues: [String] = []
        var firstWithText: [String: Int] = [:]
        var firstWithKey: [String: Int] = [:]
        for (index, option) in options.enumerated() {
            let number = index + 1
            // Compared in the default language; translations are checked against the study's languages.
            let text = option.text.text
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                issues.append("option \(number) has empty text")
            } else if let first = firstWithText[text] {
                issues.append("option \(number) repeats the text “\(text)” of option \(first)")
            } else if let first = firstWithKey[option.key] {
                issues.append("option \(number) has the same answer key “\(option.key)” as option \(first)")
            }
            if let value = option.value, value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                issues.append("option \(number) has an empty value")
            }
            firstWithText[text] = firstWithText[text] ?? number
            firstWithKey[option.key] = firstWithKey[option.key] ?? number
        }
        return issues
    }

    private static func tokenIssues(_ list: TokenList) -> [String] {
        var issues: [String] = []
        if list.suggestions.isEmpty && !list.allowsFreeEntry {
            issues.append("offers no tokens: add suggested_tokens or allow free entry")
        }
        var seen: Set<String> = []
        for (index, token) in list.suggestions.enumerated() {
            if token.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                issues.append("suggested token \(index + 1) is empty")
            } else if !seen.insert(token).inserted {
                issues.append("suggested token “\(token)” is listed more than once")
            }
        }
        if let maxCount = list.maxCount, maxCount < 1 {
            issues.append("max_count must be at least 1, found \(maxCount)")
        }
        return issues
    }

    /// Whether `value` is a whole multiple of `step`, allowing for floating-point error.
    static func isWholeMultiple(_ value: Double, of step: Double) -> Bool {
        let ratio = value / step
        return abs(ratio - ratio.rounded()) <= 1e-9 * Swift.max(1, abs(ratio))
    }
}
