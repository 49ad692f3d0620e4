import Foundation
import MomentaryCore

/// The codebook: one row per question of every survey version, or one per option for questions
/// with options (single and multiple choice, people, token suggestions), so an analyst can decode
/// every value in the other exports: `option_value` is what the answers hold, `option_label` what
/// the participant read. Scales give their range and end labels; `display_if` is the condition as
/// JSON, empty for questions always shown.
enum CodebookTable {
    static let header = [
        "survey", "survey_kind", "survey_version", "question_position", "question_id", "question_type",
        "question_text", "required", "display_if", "option_position", "option_value", "option_label",
        "min", "max", "step", "min_label", "max_label",
    ]

    static func rows(for catalog: StudySurveyVersions) -> [[ExportCell]] {
        catalog.versions.flatMap { version -> [[ExportCell]] in
            guard let document = version.document else { return [] }
            return document.content.enumerated().flatMap { position, question in
                rows(for: question, position: position, version: version)
            }
        }
    }

    private static func rows(for question: SurveyQuestion, position: Int, version: StudySurveyVersions.Version) -> [[ExportCell]] {
        let leading: [ExportCell] = [
            .text(version.surveyName), .text(version.surveyKind), .number(Double(version.version)),
            .number(Double(position + 1)), .text(question.id), .text(question.type.rawValue), .text(question.text),
            .bool(question.required), ExportCell(question.displayIf.map { AnswerRenderer.jsonText($0.json) }),
        ]
        let scale = scaleCells(question.kind)
        let options = optionPairs(question)
        guard !options.isEmpty else { return [leading + [.empty, .empty, .empty] + scale] }
        return options.enumerated().map { index, option in
            leading + [.number(Double(index + 1)), .text(option.value), .text(option.label)] + scale
        }
    }

    /// Value and label of each option; token suggestions are their own value.
    private static func optionPairs(_ question: SurveyQuestion) -> [(value: String, label: String)] {
        if case .tokens(let list) = question.kind { return list.suggestions.map { ($0, $0) } }
        return question.kind.options.map { ($0.key, $0.text) }
    }

    private static func scaleCells(_ kind: QuestionKind) -> [ExportCell] {
        switch kind {
        case .slider(let scale):
            [.number(scale.min), .number(scale.max), .number(scale.step), ExportCell(scale.minLabel), ExportCell(scale.maxLabel)]
        case .number(let range):
            [ExportCell(range.min), ExportCell(range.max), ExportCell(range.step), .empty, .empty]
        default:
            [.empty, .empty, .empty, .empty, .empty]
        }
    }
}
