import Foundation
import MomentaryCore

/// The wide table: one row per response, the response's columns (`ResponseColumns`) then, for each
/// question of the study's surveys (every version, in survey order, ids first met first), its
/// value column named by the question id and a `<id>_status` column (`answered`,
/// `NO_ANSWER_SELECTED`, `NOT_PRESENTED`, or empty when the response's survey lacks the question).
/// A multiple-choice or people question has one 0/1 column per option, `<id>_<option value>`,
/// instead of a value column: 1 chosen, 0 not chosen, empty when the question was not answered.
/// Information screens have no columns. Values are rendered as in the long table. A numbered table
/// (a participant's own download) starts with the response's `sequence` number.
struct WideTable {
    private enum Column {
        case value(question: String)
        case option(question: String, value: String)
        case status(question: String)
    }

    let study: String
    let header: [String]
    private let numbered: Bool
    private let columns: [Column]
    private var renderer = AnswerRenderer()
    /// Chosen option values by stored answer text (the same lists repeat across responses).
    private var chosenByText: [String: Set<String>] = [:]

    init(study: String, catalog: StudySurveyVersions, numbered: Bool = false) {
        self.study = study
        self.numbered = numbered
        var order: [String] = []
        var optionValues: [String: [String]] = [:]
        var multipleChoice: Set<String> = []
        for version in catalog.versions {
            for question in version.document?.content ?? [] where question.type != .infoTextBox {
                if !order.contains(question.id) { order.append(question.id) }
                switch question.kind {
                case .checkbox(let options), .people(let options):
                    multipleChoice.insert(question.id)
                    for option in options where !(optionValues[question.id] ?? []).contains(option.key) {
                        optionValues[question.id, default: []].append(option.key)
                    }
                default: break
                }
            }
        }
        var columns: [Column] = []
        for id in order {
            if multipleChoice.contains(id) {
                columns += (optionValues[id] ?? []).map { Column.option(question: id, value: $0) }
            } else {
                columns.append(.value(question: id))
            }
            columns.append(.status(question: id))
        }
        self.columns = columns
        self.header = (numbered ? ["sequence"] : []) + ResponseColumns.header + columns.map { column in
            switch column {
            case .value(let id): id
            case .option(let id, let value): id + "_" + value
            case .status(let id): id + "_status"
            }
        }
    }

    mutating func row(for record: ExportRecord) -> [ExportCell] {
        var answers: [String: ExportAnswer] = [:]
        for answer in record.answers { answers[answer.questionID] = answer }
        var cells: [ExportCell] = numbered ? [ExportCell(record.sequence)] : []
        cells.reserveCapacity(header.count)
        cells += ResponseColumns.cells(for: record, study: study)
        for column in columns {
            switch column {
            case .value(let id):
                guard let answer = answers[id], answer.status == "answered" else { cells.append(.empty); continue }
                cells.append(renderer.cell(forJSON: answer.value))
            case .option(let id, let value):
                guard let answer = answers[id], answer.status == "answered" else { cells.append(.empty); continue }
                cells.append(.number(chosen(in: answer.value).contains(value) ? 1 : 0))
            case .status(let id):
                cells.append(ExportCell(answers[id]?.status))
            }
        }
        return cells
    }

    private mutating func chosen(in text: String?) -> Set<String> {
        guard let text else { return [] }
        if let known = chosenByText[text] { return known }
        let values = (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
        let chosen = Set(values)
        if chosenByText.count >= 4096 { chosenByText.removeAll(keepingCapacity: true) }
        chosenByText[text] = chosen
        return chosen
    }
}
