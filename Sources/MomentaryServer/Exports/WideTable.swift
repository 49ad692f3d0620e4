import Foundation
import MomentaryCore

/// The wide table: one row per response, the response's columns (`ResponseColumns`) then, for each
/// question (of one survey in a researcher's export, of all in a participant's own download), its
/// value column named by the question id and a `<id>_status` column (`answered`,
/// `NO_ANSWER_SELECTED`, `NOT_PRESENTED`, or empty when the response's survey lacks the question).
/// A multiple-choice or people question has one 0/1 column per option, `<id>_<option value>`,
/// instead of a value column: 1 chosen, 0 not chosen, empty when the question was not answered.
/// Information screens have no columns. Values are rendered as in the long table. The survey's
/// scores (`scores`) follow, one column each named by the score's id (empty when too few items
/// were answered), then, where a survey shuffles questions (`randomize_groups`), `presented_order`:
/// the question ids in the order the app showed them (a JSON list). A study with participant
/// variables ends each row with a `var_<id>` column for each, the participant's value now. A numbered table (a participant's own download) starts with the response's
/// `sequence` number.
struct WideTable {
    private enum Column {
        case value(question: String)
        case option(question: String, value: String)
        case status(question: String)
        case score(id: String)
    }

    let study: String
    let header: [String]
    private let numbered: Bool
    private let columns: [Column]
    private let hasScores: Bool
    /// Whether a survey version shuffles questions, so that the order shown is worth a column.
    private let shuffles: Bool
    /// The study's participant variables, a column each at the end.
    private let variables: [String]
    private var renderer = AnswerRenderer()
    /// Chosen option values by stored answer text (the same lists repeat across responses).
    private var chosenByText: [String: Set<String>] = [:]

    /// Columns for every question of every version of every survey (a participant's own download,
    /// which has one table for all they answered).
    init(study: String, catalog: StudySurveyVersions, numbered: Bool = false) {
        let documents = catalog.versions.compactMap(\.document)
        self.init(
            study: study, versions: documents.map(\.content), scores: documents.flatMap { $0.scores.map(\.id) },
            shuffles: documents.contains { !$0.randomizedGroups.isEmpty }, variables: catalog.variableNames, numbered: numbered)
    }

    /// Columns for one survey: the questions of the versions its exported responses answered
    /// (`used`), in the order of the survey's current version, then any no longer in it as they
    /// last stood. A question added after the last response has no column; one deleted before the
    /// first has none either.
    init(study: String, survey: UUID, used: Set<Int>, catalog: StudySurveyVersions, numbered: Bool = false) {
        let versions = catalog.versions.filter { $0.surveyID == survey }.sorted { $0.version > $1.version }
        let answered = versions.filter { used.contains($0.version) }.compactMap(\.document)
        let answeredIDs = Set(answered.flatMap(\.content).map(\.id))
        let current = versions.first?.document
        let questions = (current?.content ?? []).filter { answeredIDs.contains($0.id) }
        // Scores as questions: the current version's order, then any it no longer has.
        let answeredScores = answered.flatMap { $0.scores.map(\.id) }
        let scores = (current?.scores.map(\.id) ?? []).filter(answeredScores.contains) + answeredScores
        self.init(
            study: study, versions: [questions] + answered.map(\.content), scores: scores,
            shuffles: answered.contains { !$0.randomizedGroups.isEmpty }, variables: catalog.variableNames, numbered: numbered)
    }

    /// Columns for the questions of `versions`, ids in the order first met.
    private init(
        study: String, versions: [[SurveyQuestion]], scores: [String], shuffles: Bool, variables: [String], numbered: Bool
    ) {
        self.study = study
        self.shuffles = shuffles
        self.numbered = numbered
        var order: [String] = []
        var optionValues: [String: [String]] = [:]
        var multipleChoice: Set<String> = []
        for content in versions {
            for question in content where question.type != .infoTextBox {
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
        var scoreIDs: [String] = []
        for id in scores where !scoreIDs.contains(id) && !order.contains(id) { scoreIDs.append(id) }
        columns += scoreIDs.map(Column.score)
        hasScores = !scoreIDs.isEmpty
        self.columns = columns
        self.variables = variables
        self.header = (numbered ? ["sequence"] : []) + ResponseColumns.header + columns.map { column in
            switch column {
            case .value(let id): id
            case .option(let id, let value): id + "_" + value
            case .status(let id): id + "_status"
            case .score(let id): id
            }
        } + (shuffles ? ["presented_order"] : []) + variables.map { "var_" + $0 }
    }

    mutating func row(for record: ExportRecord) -> [ExportCell] {
        var answers: [String: ExportAnswer] = [:]
        for answer in record.answers { answers[answer.questionID] = answer }
        var cells: [ExportCell] = numbered ? [ExportCell(record.sequence)] : []
        cells.reserveCapacity(header.count)
        cells += ResponseColumns.cells(for: record, study: study)
        let scores = hasScores ? Self.jsonObject(record.scores) : [:]
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
            case .score(let id):
                cells.append(ExportCell(scores[id]?.numberValue))
            }
        }
        if shuffles { cells.append(ExportCell(record.presentedOrder)) }
        if !variables.isEmpty {
            let values = Self.jsonObject(record.participantVariables)
            cells += variables.map { name in
                switch values[name] {
                case .number(let number)?: .number(number)
                case .string(let text)?: .text(text)
                default: .empty
                }
            }
        }
        return cells
    }

    /// A stored JSON object (a response's scores, a participant's variables), by key.
    static func jsonObject(_ text: String?) -> [String: JSONValue] {
        guard let text else { return [:] }
        return (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?.objectValue ?? [:]
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
