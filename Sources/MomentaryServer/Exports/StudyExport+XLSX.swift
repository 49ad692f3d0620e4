import Foundation
import NIOPosix

extension StudyExport {
    /// An Excel workbook with the sheets Responses (`AnswerTable`), Context (`ContextTable`),
    /// Environment (`EnvironmentTable`), Beeps (`BeepTable`) and Codebook (`CodebookTable`), each with a bold, frozen header row; a sheet that outgrows
    /// Excel's row limit continues on `Responses (2)` and so on. The sheets are written to temporary
    /// files as the responses are read (one pass), zipped into a temporary `.xlsx` off the
    /// concurrency pool, and that file is streamed to the sink; the files are removed afterwards.
    func writeWorkbook(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("momentary-export-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let responsesSheets = XLSXSheetSeries(name: "Responses", fileStem: "responses", directory: directory, maxDataRows: maxRowsPerSheet)
        let contextSheets = XLSXSheetSeries(name: "Context", fileStem: "context", directory: directory, maxDataRows: maxRowsPerSheet)
        let environmentSheets = XLSXSheetSeries(name: "Environment", fileStem: "environment", directory: directory, maxDataRows: maxRowsPerSheet)
        let beepSheets = XLSXSheetSeries(name: "Beeps", fileStem: "beeps", directory: directory, maxDataRows: maxRowsPerSheet)
        let codebookSheets = XLSXSheetSeries(name: "Codebook", fileStem: "codebook", directory: directory, maxDataRows: maxRowsPerSheet)
        var answers = AnswerTable(study: request.study)
        var environment = EnvironmentTable()
        var summary = ExportSummary()

        while let page = try await reader.nextPage() {
            for record in page {
                for row in answers.rows(for: record) {
                    try responsesSheets.append(row) { AnswerTable.header }
                    summary.rows += 1
                }
                try contextSheets.append(ContextTable.row(for: record, study: request.study)) { ContextTable.header }
                if let cells = environment.row(for: record) {
                    try environmentSheets.append(sparse: cells) { environment.header }
                }
            }
            summary.responses += page.count
            progress?(summary)
        }

        var beeps = try await BeepReader(studyID: studyID, filter: request.filter, pageSize: pageSize, sql: sql())
        while let page = try await beeps.nextPage() {
            for beep in page {
                try beepSheets.append(BeepTable.row(for: beep, study: request.study)) { BeepTable.header }
            }
        }
        let versions = try await StudySurveyVersions.load(studyID: studyID, sql: sql())
        let codebook = CodebookTable(languages: versions.languages)
        for row in codebook.rows(for: versions) {
            try codebookSheets.append(row) { codebook.header }
        }

        let sheets = try responsesSheets.finish(header: AnswerTable.header)
            + contextSheets.finish(header: ContextTable.header)
            + environmentSheets.finish(header: environment.header)
            + beepSheets.finish(header: BeepTable.header)
            + codebookSheets.finish(header: codebook.header)
        let workbookURL = directory.appendingPathComponent("workbook.xlsx")
        // Compressing a large workbook takes a while; keep it off the threads that serve requests.
        try await NIOThreadPool.singleton.runIfActive {
            try XLSXArchive.write(sheets, to: workbookURL)
        }
        try await output.write(fileAt: workbookURL)
        return summary
    }
}
