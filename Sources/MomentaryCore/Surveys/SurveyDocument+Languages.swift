import Foundation

/// The texts of a survey by language: what a participant is shown, and what a translation lacks.
extension SurveyDocument {
    /// This survey with every text in the study language chosen for `preferences` (plain strings),
    /// as an app is sent it. Values answers store (option `value`s, token suggestions) stay as they are.
    public func localized(for preferences: [String], languages: [String]) -> SurveyDocument {
        var copy = self
        copy.content = content.map { $0.mappingTexts { $0.localized(for: preferences, languages: languages) } }
        // A score's label is read above its feedback charts.
        if let entries = extraFields["scores"]?.arrayValue {
            copy.extraFields["scores"] = .array(entries.map { entry in
                guard var object = entry.objectValue, let label = object["label"].flatMap(LocalizedText.init(json:)) else { return entry }
                object["label"] = .string(label.resolved(for: preferences, languages: languages))
                return .object(object)
            })
        }
        return copy
    }

    /// Every text a participant reads, with the question it belongs to and what it is
    /// (`question_text`, `option 2`, `min_label`…), in survey order.
    public var participantTexts: [(question: SurveyQuestion, part: String, text: LocalizedText)] {
        content.flatMap { question in question.texts.map { (question, $0.part, $0.text) } }
    }

    /// Each text that lacks one of the study's languages or has one the study does not offer, and
    /// each translated option without a `value`; one problem per text, naming the question.
    public func translationProblems(languages: [String], includingUnknown: Bool = true) -> [SurveyProblem] {
        var problems: [SurveyProblem] = []
        for (position, question) in content.enumerated() {
            let label = SurveyMessages.capitalizingFirst(SurveyQuestion.label(position: position, id: question.id))
            var issues = question.texts.flatMap {
                StudyLanguages.problems(of: $0.text, label: $0.part, languages: languages, includingUnknown: includingUnknown)
            }
            for (index, option) in question.kind.options.enumerated() where option.text.isTranslated && option.value == nil {
                issues.append("option \(index + 1) has its text by language, so it needs a “value” to store whatever the language")
            }
            problems += issues.map { SurveyProblem(questionNumber: position + 1, questionID: question.id, message: "\(label): \($0).") }
        }
        return problems
    }
}

extension SurveyQuestion {
    /// This question with every text in the study language chosen for `preferences` (`SurveyDocument.localized`).
    public func localized(for preferences: [String], languages: [String]) -> SurveyQuestion {
        mappingTexts { $0.localized(for: preferences, languages: languages) }
    }

    /// The question's texts a participant reads, each named as a message names it.
    var texts: [(part: String, text: LocalizedText)] {
        var texts: [(String, LocalizedText)] = [("question_text", text)]
        switch kind {
        case .slider(let scale):
            if let label = scale.minLabel { texts.append(("min_label", label)) }
            if let label = scale.maxLabel { texts.append(("max_label", label)) }
            for (index, label) in (scale.labels ?? []).enumerated() { texts.append(("label \(index + 1)", label)) }
        case .radioButton(let options), .checkbox(let options), .people(let options):
            for (index, option) in options.enumerated() { texts.append(("option \(index + 1)", option.text)) }
        default:
            break
        }
        return texts
    }

    /// The same question with `transform` applied to each of its texts.
    func mappingTexts(_ transform: (LocalizedText) -> LocalizedText) -> SurveyQuestion {
        var copy = self
        copy.text = transform(text)
        func options(_ list: [ChoiceOption]) -> [ChoiceOption] {
            // A plain text resolves to itself, so what an option stores is the same in every
            // language; a translated option must have a `value` (`translationProblems`).
            list.map { option in
                var localized = option
                localized.text = transform(option.text)
                return localized
            }
        }
        switch kind {
        case .slider(var scale):
            scale.minLabel = scale.minLabel.map(transform)
            scale.maxLabel = scale.maxLabel.map(transform)
            scale.labels = scale.labels?.map(transform)
            copy.kind = .slider(scale)
        case .radioButton(let list): copy.kind = .radioButton(options(list))
        case .checkbox(let list): copy.kind = .checkbox(options(list))
        case .people(let list): copy.kind = .people(options(list))
        default: break
        }
        return copy
    }
}
