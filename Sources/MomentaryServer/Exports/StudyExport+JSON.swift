import Foundation

extension StudyExport {
    /// A JSON array of response objects (`ExportedResponseJSON`), one per line, written as they are
    /// read: `[` first, `]` last, so even an export without responses is the valid `[]`.
    func writeJSON(_ reader: inout ExportReader, to output: ExportOutput, progress: ExportProgress?) async throws -> ExportSummary {
        var summary = ExportSummary()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try await output.write("[")
        while let page = try await reader.nextPage() {
            var text = ""
            for record in page {
                text += summary.rows == 0 ? "\n" : ",\n"
                text += String(decoding: try encoder.encode(ExportedResponseJSON(study: request.study, record: record, armColumn: armColumn)), as: UTF8.self)
                summary.rows += 1
            }
            summary.responses += page.count
            try await output.write(text)
            summary.bytes = output.bytesWritten
            progress?(summary)
        }
        try await output.write(summary.rows == 0 ? "]\n" : "\n]\n")
        return summary
    }
}
