import Foundation

/// The analysis-ready table of answers: one row per answer (every question of every response,
/// including `NO_ANSWER_SELECTED` and `NOT_PRESENTED` ones), used by the CSV export and the
/// workbook's Responses sheet.
///
/// Choices worth knowing: instants are UTC; `question_position` counts from 1 in survey order;
/// `answer` is rendered by `AnswerRenderer` and is empty unless `answer_status` is `answered`, so
/// the column stays numeric for numeric questions; `scheduled_at`, `sent_at`, `beep_id` and
/// `delay_seconds` (beep sent → survey started) are empty for volunteered responses.
struct AnswerTable {
    static let header = [
        "study", "participant_id", "participant_label", "response_id", "survey", "survey_version", "beep_id",
        "scheduled_at", "sent_at", "started_at", "submitted_at", "delay_seconds", "volunteered",
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

    /// The first thirteen columns, the same on every row of a response.
    func responseCells(for record: ExportRecord) -> [ExportCell] {
        [
            .text(study), ExportCell(id: record.participantID), ExportCell(record.participantLabel), ExportCell(id: record.responseID),
            .text(record.surveyName), .number(Double(record.surveyVersion)), ExportCell(id: record.beepID),
            ExportCell(record.scheduledAt), ExportCell(record.sentAt), .date(record.startedAt), .date(record.submittedAt),
            ExportCell(record.delaySeconds), .bool(record.volunteered),
        ]
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
