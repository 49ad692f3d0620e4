import Foundation
import MomentaryCore

/// The codebook: one row per question of every survey version, or one per option for questions
/// with options (single and multiple choice, people, token suggestions), so an analyst can decode
/// every value in the other exports: `option_value` is what the answers hold, `option_label` what
/// the participant read. Scales give their range and end labels; `display_if` is the condition as
/// JSON, empty for questions always shown. Texts are in the study's default language; a study of
/// several languages adds `question_text_<tag>`, `option_label_<tag>`, `min_label_<tag>` and
/// `max_label_<tag>` for each other language. Each survey's scores (`scores`) follow its questions,
/// with question_type `score` and how the score is computed as the text.
struct CodebookTable {
    static let singleLanguageHeader = [
        "survey", "survey_kind", "survey_version", "question_position", "question_id", "question_type",
        "question_text", "required", "display_if", "option_position", "option_value", "option_label",
        "min", "max", "step", "min_label", "max_label",
    ]

    /// The study's languages, the first the default.
    let languages: [String]

    private var otherLanguages: ArraySlice<String> { languages.dropFirst() }

    var header: [String] {
        Self.singleLanguageHeader + otherLanguages.flatMap { tag in
            ["question_text_", "option_label_", "min_label_", "max_label_"].map { $0 + tag }
        }
    }

    func rows(for catalog: StudySurveyVersions) -> [[ExportCell]] {
        catalog.versions.flatMap { version -> [[ExportCell]] in
            guard let document = version.document else { return [] }
            return document.content.enumerated().flatMap { position, question in
                rows(for: question, position: position, version: version)
            } + document.scores.enumerated().map { index, score in
                row(for: score, position: document.content.count + index, version: version)
            }
        }
    }

    /// A score as a row after the questions: its label, if any, and how it is computed as the
    /// text; the label in each other language, if given.
    private func row(for score: SurveyScore, position: Int, version: StudySurveyVersions.Version) -> [ExportCell] {
        let label = score.label.map { text($0, in: languages[0]) } ?? ""
        return [
            .text(version.surveyName), .text(version.surveyKind), .number(Double(version.version)),
            .number(Double(position + 1)), .text(score.id), .text("score"),
            .text(label.isEmpty ? score.summary : "\(label) (\(score.summary))"), .bool(false), .empty,
            .empty, .empty, .empty, .empty, .empty, .empty, .empty, .empty,
        ] + otherLanguages.flatMap { tag in [ExportCell(score.label.map { text($0, in: tag) }), .empty, .empty, .empty] }
    }

    private func rows(for question: SurveyQuestion, position: Int, version: StudySurveyVersions.Version) -> [[ExportCell]] {
        let defaultLanguage = languages[0]
        let leading: [ExportCell] = [
            .text(version.surveyName), .text(version.surveyKind), .number(Double(version.version)),
            .number(Double(position + 1)), .text(question.id), .text(question.type.rawValue), .text(text(question.text, in: defaultLanguage)),
            .bool(question.required), ExportCell(question.displayIf.map { AnswerRenderer.jsonText($0.json) }),
        ]
        let scale = scaleCells(question.kind)
        let options = optionPairs(question)
        guard !options.isEmpty else {
            return [leading + [.empty, .empty, .empty] + scale + translatedCells(question, option: nil)]
        }
        return options.enumerated().map { index, option in
            leading + [.number(Double(index + 1)), .text(option.value), .text(text(option.label, in: defaultLanguage))] + scale
                + translatedCells(question, option: option.label)
        }
    }

    /// A text in one language: as given for it, else (a plain text in a study of one language) as it is.
    private func text(_ text: LocalizedText, in language: String) -> String {
        text.given(in: language, languages: languages) ?? (languages.count == 1 ? text.text : "")
    }

    /// The other languages' question text, option label and end labels.
    private func translatedCells(_ question: SurveyQuestion, option: LocalizedText?) -> [ExportCell] {
        otherLanguages.flatMap { tag -> [ExportCell] in
            var labels: (LocalizedText?, LocalizedText?) = (nil, nil)
            if case .slider(let scale) = question.kind { labels = (scale.minLabel, scale.maxLabel) }
            return [
                .text(text(question.text, in: tag)), ExportCell(option.map { text($0, in: tag) }),
                ExportCell(labels.0.map { text($0, in: tag) }), ExportCell(labels.1.map { text($0, in: tag) }),
            ]
        }
    }

    /// Value and label of each option; token suggestions are their own value.
    private func optionPairs(_ question: SurveyQuestion) -> [(value: String, label: LocalizedText)] {
        if case .tokens(let list) = question.kind { return list.suggestions.map { ($0, LocalizedText($0)) } }
        return question.kind.options.map { ($0.key, $0.text) }
    }

    private func scaleCells(_ kind: QuestionKind) -> [ExportCell] {
        let defaultLanguage = languages[0]
        switch kind {
        case .slider(let scale):
            return [.number(scale.min), .number(scale.max), .number(scale.step),
                    ExportCell(scale.minLabel.map { text($0, in: defaultLanguage) }),
                    ExportCell(scale.maxLabel.map { text($0, in: defaultLanguage) })]
        case .number(let range):
            return [ExportCell(range.min), ExportCell(range.max), ExportCell(range.step), .empty, .empty]
        default:
            return [.empty, .empty, .empty, .empty, .empty]
        }
    }
}
