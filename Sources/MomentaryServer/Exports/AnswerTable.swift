import Foundation

/// The long table of answers: one row per answer (every question of every response, including
/// `NO_ANSWER_SELECTED` and `NOT_PRESENTED` ones), used by the long CSV and the workbook's
/// Responses sheet. The response's own columns come first (`ResponseColumns`).
///
/// `question_position` counts from 1 in survey order; `answer` is rendered by `AnswerRenderer` and
/// is empty unless `answer_status` is `answered`, so the column stays numeric for numeric questions.
struct AnswerTable {
    static let header = ResponseColumns.header + [
        "question_position", "question_id", "question_type", "question_text", "answer", "answer_status",
    ]

    let study: String
    private var renderer = AnswerRenderer()

    init(study: String) {
        self.study = study
    }

    /// All rows of one response.
    mutating func rows(for record: ExportRecord) -> [[ExportCell]] {
        let leading = responseCells(for: record)
        return record.answers.map { leading + answerCells(for: $0) }
    }

    /// The response's columns, the same on every row of a response.
    func responseCells(for record: ExportRecord) -> [ExportCell] {
        ResponseColumns.cells(for: record, study: study)
    }

    /// The last six columns, about one answer.
    mutating func answerCells(for answer: ExportAnswer) -> [ExportCell] {
        [
            .number(Double(answer.position + 1)), .text(answer.questionID), .text(answer.questionType),
            .text(answer.questionText), answer.status == "answered" ? renderer.cell(forJSON: answer.value) : .empty,
            .text(answer.status),
        ]
    }
}
