import Foundation

/// The shapes a study's responses can be exported in.
public enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// One row per answer (see `AnswerTable`).
    case csv
    /// One row per response with its sensed context (see `ContextTable`).
    case contextCSV = "context-csv"
    /// An array of response objects, each with its answers and context.
    case json
    /// An Excel workbook with the sheets Responses, Context and Environment.
    case xlsx

    public var contentType: String {
        switch self {
        case .csv, .contextCSV: "text/csv; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        case .xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        }
    }

    /// A file name for a download of `study`'s export, e.g. `city-moods-answers.csv`.
    public func fileName(study slug: String) -> String {
        switch self {
        case .csv: "\(slug)-answers.csv"
        case .contextCSV: "\(slug)-context.csv"
        case .json: "\(slug)-responses.json"
        case .xlsx: "\(slug)-responses.xlsx"
        }
    }
}
