import Foundation

/// The shapes a study's data can be exported in; the website and `momentary export` offer the same.
public enum ExportFormat: String, Sendable, Hashable, CaseIterable {
    /// One row per answer (see `AnswerTable`).
    case long
    /// One row per response, one column per question (see `WideTable`).
    case wide
    /// One row per beep, whatever became of it (see `BeepTable`).
    case beeps
    /// One row per question and option of every survey version (see `CodebookTable`).
    case codebook
    /// One row per message between the researchers and the participants (see `MessageTable`).
    case messages
    /// One row per response with its sensed context (see `ContextTable`).
    case context
    /// An array of response objects, each with its answers and context.
    case json
    /// An Excel workbook with the sheets Responses, Context, Environment, Beeps and Codebook.
    case xlsx
    /// A map of the responses that have a location (KML zipped, for Google Earth and GIS tools).
    case kmz
    /// A calendar of the responses, one event each at the time it was given (iCalendar).
    case ics
    /// A ZIP of every other format plus the participants' photos, for archiving a whole study.
    case archive

    /// The names `csv` and `context-csv` of earlier versions, kept for scripts that use them.
    public static let csv = ExportFormat.long
    public static let contextCSV = ExportFormat.context

    /// The format with this name, including the older names; nil for an unknown name.
    public init?(name: String) {
        switch name {
        case "csv": self = .long
        case "context-csv": self = .context
        default: self.init(rawValue: name)
        }
    }

    /// The names people may type, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Whether the format is CSV text (which can take a byte-order mark for Excel).
    public var isCSV: Bool {
        switch self {
        case .long, .wide, .beeps, .codebook, .context, .messages: true
        case .json, .xlsx, .kmz, .ics, .archive: false
        }
    }

    /// Whether the format is text, which can go to standard output (ZIP-based formats cannot).
    public var isText: Bool { self != .xlsx && self != .archive && self != .kmz }

    public var contentType: String {
        switch self {
        case .long, .wide, .beeps, .codebook, .context, .messages: "text/csv; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        case .xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        case .kmz: "application/vnd.google-earth.kmz"
        case .ics: "text/calendar; charset=utf-8"
        case .archive: "application/zip"
        }
    }

    /// A file name for a download of `study`'s export, e.g. `city-moods-answers.csv`.
    public func fileName(study slug: String) -> String {
        switch self {
        case .long: "\(slug)-answers.csv"
        case .wide: "\(slug)-responses-wide.csv"
        case .beeps: "\(slug)-beeps.csv"
        case .messages: "\(slug)-messages.csv"
        case .codebook: "\(slug)-codebook.csv"
        case .context: "\(slug)-context.csv"
        case .json: "\(slug)-responses.json"
        case .xlsx: "\(slug)-responses.xlsx"
        case .kmz: "\(slug)-responses.kmz"
        case .ics: "\(slug)-responses.ics"
        case .archive: "\(slug)-study.zip"
        }
    }
}
