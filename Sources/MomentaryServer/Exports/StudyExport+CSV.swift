import Fluent
import Foundation
import MomentaryCore
import SQLKit

extension StudyExport {
    /// One row per answer (`AnswerTable`), header first.
    func writeAnswersCSV(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        var summary = ExportSummary()
        var table = AnswerTable(study: request.study)
        var writer = CSVWriter()
        // The response's columns are written once and copied onto each of its rows.
        var leading = CSVWriter(capacity: 1024)
        writer.record(armColumn.header(AnswerTable.header))
        while let page = try await reader.nextPage() {
            for record in page {
                leading.clear()
                leading.fields(armColumn.cells(table.responseCells(for: record), participantID: record.participantID, header: AnswerTable.header))
                for answer in record.answers {
                    writer.fields(leading.bytes[...])
                    writer.fields(table.answerCells(for: answer))
                    writer.endRecord()
                    summary.rows += 1
                }
            }
            summary.responses += page.count
            try await writer.flushPage(to: output, &summary, progress: progress)
        }
        try await writer.flush(to: output)
        return summary
    }

    /// One row per response (`ContextTable`), header first.
    func writeContextCSV(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        try await writeResponseRows(&reader, header: ContextTable.header, to: output, progress: progress) { record in
            ContextTable.row(for: record, study: request.study)
        }
    }

    /// One row per response with a column per question (`WideTable`), header first.
    func writeWideCSV(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        let catalog = try await StudySurveyVersions.load(studyID: studyID, sql: db.sql)
        var table = if let survey = request.filter.surveyID {
            WideTable(study: request.study, survey: survey,
                      used: try await answeredSurveys().first { $0.id == survey }?.versions ?? [], catalog: catalog, numbered: numbered)
        } else {
            WideTable(study: request.study, catalog: catalog, numbered: numbered)
        }
        return try await writeResponseRows(&reader, header: table.header, to: output, progress: progress) { record in
            table.row(for: record)
        }
    }

    /// A CSV of one row per response: the header, then `row` of each response as pages are read.
    private func writeResponseRows(
        _ reader: inout ExportReader, header: [String], to output: ExportOutput, progress: ExportProgress?,
        row: (ExportRecord) -> [ExportCell]
    ) async throws -> ExportSummary {
        var summary = ExportSummary()
        var writer = CSVWriter()
        writer.record(armColumn.header(header))
        while let page = try await reader.nextPage() {
            for record in page {
                writer.record(armColumn.cells(row(record), participantID: record.participantID, header: header))
            }
            summary.responses += page.count
            summary.rows += page.count
            try await writer.flushPage(to: output, &summary, progress: progress)
        }
        try await writer.flush(to: output)
        return summary
    }

    /// One row per beep (`BeepTable`), header first.
    func writeBeepsCSV(to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        var beeps = try await BeepReader(studyID: studyID, filter: request.filter, pageSize: pageSize, sql: db.sql)
        return try await writeRows(&beeps, header: BeepTable.header, to: output, progress: progress) {
            armColumn.cells(BeepTable.row(for: $0, study: request.study), participantID: $0.participantId, header: BeepTable.header)
        }
    }

    /// One row per message between the researchers and the participants (`MessageTable`), header first.
    func writeMessagesCSV(to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        var messages = try await MessageReader(studyID: studyID, filter: request.filter, pageSize: pageSize, sql: db.sql)
        return try await writeRows(&messages, header: MessageTable.header, to: output, progress: progress) {
            armColumn.cells(MessageTable.row(for: $0, study: request.study), participantID: $0.participantId, header: MessageTable.header)
        }
    }

    /// A CSV of a table read page by page: the header, then `row` of each record.
    private func writeRows<Record>(
        _ reader: inout ZonedPageReader<Record>, header: [String], to output: ExportOutput, progress: ExportProgress?,
        row: (Record) -> [ExportCell]
    ) async throws -> ExportSummary {
        var summary = ExportSummary()
        var writer = CSVWriter()
        writer.record(armColumn.header(header))
        while let page = try await reader.nextPage() {
            for record in page {
                writer.record(row(record))
            }
            summary.rows += page.count
            try await writer.flushPage(to: output, &summary, progress: progress)
        }
        try await writer.flush(to: output)
        return summary
    }

    /// One row per question and option of every survey version (`CodebookTable`), header first.
    func writeCodebookCSV(to output: ExportOutput) async throws -> ExportSummary {
        var summary = ExportSummary()
        var writer = CSVWriter()
        let versions = try await StudySurveyVersions.load(studyID: studyID, sql: db.sql)
        let codebook = CodebookTable(languages: versions.languages)
        writer.record(codebook.header)
        for row in codebook.rows(for: versions) {
            writer.record(row)
            summary.rows += 1
        }
        try await writer.flush(to: output)
        return summary
    }
}

extension CSVWriter {
    /// Writes out what a page added and reports the export's progress so far.
    mutating func flushPage(to output: ExportOutput, _ summary: inout ExportSummary, progress: ExportProgress?) async throws {
        try await flush(to: output)
        summary.bytes = output.bytesWritten
        progress?(summary)
    }
}
