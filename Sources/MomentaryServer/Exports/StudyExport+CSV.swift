import Foundation

extension StudyExport {
    /// One row per answer (`AnswerTable`), header first.
    func writeAnswersCSV(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        var summary = ExportSummary()
        var table = AnswerTable(study: request.study)
        try await output.write(CSVText.record(AnswerTable.header))
        while let page = try await reader.nextPage() {
            var text = ""
            for record in page {
                // The response's columns are rendered once and shared by its rows.
                let leading = CSVText.fields(table.responseCells(for: record)) + ","
                for answer in record.answers {
                    text += leading + CSVText.fields(table.answerCells(for: answer)) + CSVText.recordEnd
                    summary.rows += 1
                }
            }
            summary.responses += page.count
            try await output.write(text)
            summary.bytes = output.bytesWritten
            progress?(summary)
        }
        return summary
    }

    /// One row per response (`ContextTable`), header first.
    func writeContextCSV(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        var summary = ExportSummary()
        try await output.write(CSVText.record(ContextTable.header))
        while let page = try await reader.nextPage() {
            var text = ""
            for record in page {
                text += CSVText.record(ContextTable.row(for: record, study: request.study))
            }
            summary.responses += page.count
            summary.rows += page.count
            try await output.write(text)
            summary.bytes = output.bytesWritten
            progress?(summary)
        }
        return summary
    }
}
