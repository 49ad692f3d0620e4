import Foundation
import MomentaryCore
import NIOPosix

extension StudyExport {
    /// An Excel workbook with the sheets Responses (`AnswerTable`), one `Wide <survey>` per survey
    /// with responses (`WideTable`), Context (`ContextTable`),
    /// Environment (`EnvironmentTable`), Beeps (`BeepTable`) and Codebook (`CodebookTable`), each with a bold, frozen header row; a sheet that outgrows
    /// Excel's row limit continues on `Responses (2)` and so on. The sheets are written to temporary
    /// files as the responses are read (one pass), zipped into a temporary `.xlsx` off the
    /// concurrency pool, and that file is streamed to the sink; the files are removed afterwards.
    func writeWorkbook(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        let directory = try ScratchFolder.make("export")
        defer { try? FileManager.default.removeItem(at: directory) }

        let responsesSheets = XLSXSheetSeries(name: "Responses", fileStem: "responses", directory: directory, maxDataRows: maxRowsPerSheet)
        let contextSheets = XLSXSheetSeries(name: "Context", fileStem: "context", directory: directory, maxDataRows: maxRowsPerSheet)
        let environmentSheets = XLSXSheetSeries(name: "Environment", fileStem: "environment", directory: directory, maxDataRows: maxRowsPerSheet)
        let beepSheets = XLSXSheetSeries(name: "Beeps", fileStem: "beeps", directory: directory, maxDataRows: maxRowsPerSheet)
        let codebookSheets = XLSXSheetSeries(name: "Codebook", fileStem: "codebook", directory: directory, maxDataRows: maxRowsPerSheet)
        var answers = AnswerTable(study: request.study)
        var environment = EnvironmentTable()
        var summary = ExportSummary()
        let versions = try await StudySurveyVersions.load(studyID: studyID, sql: db.sql)
        // One wide sheet per survey with responses, as the archive has one wide file per survey.
        var sheetNames = Set(["Responses", "Context", "Environment", "Beeps", "Codebook"])
        var wide: [UUID: (table: WideTable, sheets: XLSXSheetSeries)] = [:]
        var wideOrder: [UUID] = []
        for (index, survey) in try await answeredSurveys().enumerated() {
            let table = WideTable(study: request.study, survey: survey.id, used: survey.versions, catalog: versions)
            let name = Self.sheetName("Wide " + survey.name, avoiding: &sheetNames)
            wide[survey.id] = (table, XLSXSheetSeries(name: name, fileStem: "wide-\(index)", directory: directory, maxDataRows: maxRowsPerSheet))
            wideOrder.append(survey.id)
        }

        while let page = try await reader.nextPage() {
            for record in page {
                for row in answers.rows(for: record) {
                    try responsesSheets.append(armColumn.cells(row, participantID: record.participantID, header: AnswerTable.header)) { armColumn.header(AnswerTable.header) }
                    summary.rows += 1
                }
                try contextSheets.append(armColumn.cells(ContextTable.row(for: record, study: request.study), participantID: record.participantID, header: ContextTable.header)) { armColumn.header(ContextTable.header) }
                if let cells = environment.row(for: record) {
                    try environmentSheets.append(sparse: cells) { environment.header }
                }
                if let surveyID = record.surveyID, var entry = wide[surveyID] {
                    let header = entry.table.header
                    try entry.sheets.append(armColumn.cells(entry.table.row(for: record), participantID: record.participantID, header: header)) { armColumn.header(header) }
                    wide[surveyID] = entry
                }
            }
            summary.responses += page.count
            progress?(summary)
        }

        var beeps = try await BeepReader(studyID: studyID, filter: request.filter, pageSize: pageSize, sql: db.sql)
        while let page = try await beeps.nextPage() {
            for beep in page {
                try beepSheets.append(armColumn.cells(BeepTable.row(for: beep, study: request.study), participantID: beep.participantId, header: BeepTable.header)) { armColumn.header(BeepTable.header) }
            }
        }
        let codebook = CodebookTable(languages: versions.languages)
        for row in codebook.rows(for: versions) {
            try codebookSheets.append(row) { codebook.header }
        }

        let wideSheets = try wideOrder.flatMap { id in try wide[id].map { try $0.sheets.finish(header: armColumn.header($0.table.header)) } ?? [] }
        let sheets = try responsesSheets.finish(header: armColumn.header(AnswerTable.header))
            + wideSheets
            + contextSheets.finish(header: armColumn.header(ContextTable.header))
            + environmentSheets.finish(header: environment.header)
            + beepSheets.finish(header: armColumn.header(BeepTable.header))
            + codebookSheets.finish(header: codebook.header)
        let workbookURL = directory.appendingPathComponent("workbook.xlsx")
        // Compressing a large workbook takes a while; keep it off the threads that serve requests.
        try await NIOThreadPool.singleton.runIfActive {
            try XLSXArchive.write(sheets, to: workbookURL)
        }
        try await output.write(fileAt: workbookURL)
        return summary
    }

    /// A sheet name Excel takes: none of `[]:*?/\`, at most 31 characters with room for a
    /// continuation's " (2)", and unlike the workbook's other sheets.
    static func sheetName(_ wanted: String, avoiding taken: inout Set<String>) -> String {
        let cleaned = String(wanted.map { "[]:*?/\\".contains($0) ? "_" : $0 }.prefix(26))
        var name = cleaned
        var number = 2
        while taken.contains(name) {
            name = String(cleaned.prefix(23)) + " \(number)"
            number += 1
        }
        taken.insert(name)
        return name
    }
}
