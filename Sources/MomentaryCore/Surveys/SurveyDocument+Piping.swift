import Foundation

/// Piped texts (`PipedText`) resolved against a response in progress, and checked when saved.
extension SurveyDocument {
    /// `question` with its text and option texts piped. The document should already be
    /// localized, so that labels are in the participant's language. `answers` holds the accepted
    /// answers so far (question id → canonical answer); `variables` the participant's variables.
    public func piped(_ question: SurveyQuestion, given answers: [String: JSONValue], variables: [String: JSONValue] = [:]) -> SurveyQuestion {
        var piped = question
        piped.text = LocalizedText(pipedText(question.text.text, given: answers, variables: variables))
        switch question.kind {
        case .radioButton(let options): piped.kind = .radioButton(pipedOptions(options, answers, variables))
        case .checkbox(let options): piped.kind = .checkbox(pipedOptions(options, answers, variables))
        case .people(let options): piped.kind = .people(pipedOptions(options, answers, variables))
        default: break
        }
        return piped
    }

    /// `text` with its placeholders replaced.
    public func pipedText(_ text: String, given answers: [String: JSONValue], variables: [String: JSONValue] = [:]) -> String {
        PipedText.resolve(text) { placeholder in
            switch placeholder.source {
            case .answer:
                guard let question = question(withID: placeholder.name) else { return nil }
                return question.pipedAnswer(answers[placeholder.name], label: placeholder.usesLabel)
            case .score:
                return score(withID: placeholder.name)?.value(given: answers, in: self).map(PipedText.number)
            case .variable:
                switch variables[placeholder.name] {
                case .string(let text)?: return text.isEmpty ? nil : text
                case .number(let number)?: return PipedText.number(number)
                default: return nil
                }
            }
        }
    }

    private func pipedOptions(_ options: [ChoiceOption], _ answers: [String: JSONValue], _ variables: [String: JSONValue]) -> [ChoiceOption] {
        options.map { option in
            var piped = option
            // The stored value stays what it was: only the words shown change.
            piped.value = option.key
            piped.text = LocalizedText(pipedText(option.text.text, given: answers, variables: variables))
            return piped
        }
    }

    /// What is wrong with the placeholders in a question's texts (every language), as phrases.
    func pipingIssues(of question: SurveyQuestion, at position: Int, firstPosition: [String: Int]) -> [String] {
        var issues: [String] = []
        for (part, piece) in question.pipedPlaceholders {
            switch piece {
            case .text: continue
            case .unreadable(let written, let reason):
                issues.append("\(part.name) has “\(written)”, which \(reason)")
            case .placeholder(let placeholder, let written):
                if let issue = placeholderIssue(placeholder, at: position, firstPosition: firstPosition) {
                    issues.append("\(part.name) has “\(written)”, which \(issue)")
                }
            }
        }
        // Each language's text repeats the same placeholders: report each problem once.
        var seen: Set<String> = []
        return issues.filter { seen.insert($0).inserted }
    }

    private func placeholderIssue(_ placeholder: TextPlaceholder, at position: Int, firstPosition: [String: Int]) -> String? {
        let name = placeholder.name
        switch placeholder.source {
        case .variable:
            if placeholder.usesLabel { return "asks for a label, which only choice answers have" }
            return QuestionIdentifier.isValid(name) ? nil : "names variable “\(name)”, which is not a plain name (\(QuestionIdentifier.rule))"
        case .score:
            guard let score = score(withID: name) else { return "names unknown score “\(name)”" }
            if placeholder.usesLabel { return "asks for a label, which only choice answers have" }
            let last = score.items.compactMap { firstPosition[$0] }.max() ?? -1
            return last >= position ? "uses \(SurveyQuestion.label(position: last, id: content[last].id)), which is not asked before it" : nil
        case .answer:
            guard let target = firstPosition[name] else { return "names unknown question “\(name)”" }
            let label = SurveyQuestion.label(position: target, id: name)
            if target >= position { return "names \(label), which is not asked before it" }
            let question = content[target]
            guard question.canBePiped else { return "names \(label), a \(question.type.rawValue) question whose answer cannot be shown as text" }
            if placeholder.usesLabel, question.kind.options.isEmpty { return "asks for the label of \(label), which has no options" }
            return nil
        }
    }
}

extension SurveyQuestion {
    /// Where in a question a piped placeholder is written.
    enum TextPart: Hashable, Sendable {
        case questionText
        /// The option at this index, counted from 0.
        case option(Int)

        /// As problems name it: `question_text`, `option 1`.
        var name: String {
            switch self {
            case .questionText: "question_text"
            case .option(let index): "option \(index + 1)"
            }
        }
    }

    /// Every `{{…}}` in the question's text and option texts, in every language (in tag order,
    /// so that what is reported of them comes in the same order each time): placeholders, and
    /// those that could not be read; never `.text`. The one walk that the checks on save, the
    /// order's dependencies and the variables a survey names share, so that they agree on which
    /// texts count.
    var pipedPlaceholders: [(part: TextPart, piece: PipedText.Piece)] {
        var texts = [(TextPart.questionText, text)]
        texts += kind.options.enumerated().map { (TextPart.option($0.offset), $0.element.text) }
        var found: [(part: TextPart, piece: PipedText.Piece)] = []
        for (part, text) in texts {
            let written = text.plain.map { [$0] } ?? text.byLanguage.keys.sorted().compactMap { text.byLanguage[$0] }
            for piece in written.filter(PipedText.mayPipe).flatMap(PipedText.pieces) {
                if case .text = piece { continue }
                found.append((part, piece))
            }
        }
        return found
    }

    /// Whether an answer to this question can be shown in another question's text.
    public var canBePiped: Bool {
        switch kind {
        case .yesNo, .location, .photo, .audioRecording, .infoTextBox: false
        default: true
        }
    }

    /// A canonical answer as piped text: numbers as `PipedText.number` writes them, texts and
    /// dates as given, choices and tokens joined by “, ” (a choice's option text with `label`).
    func pipedAnswer(_ answer: JSONValue?, label: Bool) -> String? {
        guard canBePiped, let answer else { return nil }
        switch answer {
        case .number(let number): return PipedText.number(number)
        case .string(let text): return shown([text], label: label)
        case .array(let items): return shown(items.compactMap(\.stringValue), label: label)
        default: return nil
        }
    }

    private func shown(_ keys: [String], label: Bool) -> String? {
        let options = kind.options
        let words = label && !options.isEmpty
            ? keys.map { key in options.first { $0.key == key }?.text.text ?? key }
            : keys
        return words.isEmpty ? nil : words.joined(separator: ", ")
    }
}
