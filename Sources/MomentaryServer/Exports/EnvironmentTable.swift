import Foundation
import MomentaryCore

/// The workbook's Environment sheet: one row per response that has weather, air quality or pollen
/// attached, with each provider's JSON spread into columns named `source.field` (nested objects
/// continue the path: `air_quality.pollutants.pm10`; lists stay as JSON text). A provider decides
/// its fields, so columns are added as they are first met, and the header is known only at the end
/// (the workbook writes it first all the same; see `XLSXSheetWriter`).
struct EnvironmentTable {
    static let fixedHeader = [
        "participant_id", "participant_label", "response_id", "timezone", "submitted_at_utc", "submitted_at_local", "latitude", "longitude", "place", "country",
    ]

    private(set) var columns: [String] = []
    private var columnIndex: [String: Int] = [:]

    var header: [String] { Self.fixedHeader + columns }

    /// The row's cells by column (ascending), or nil when the response has no environment.
    mutating func row(for record: ExportRecord) -> [(column: Int, cell: ExportCell)]? {
        guard let context = record.context else { return nil }
        let sources = context.environment
        guard !sources.isEmpty else { return nil }
        let fixed: [ExportCell] = [
            ExportCell(id: record.participantID), ExportCell(record.participantLabel), ExportCell(id: record.responseID),
            .text(record.timeZone.identifier), .date(record.submittedAt), .local(record.submittedAt, in: record.timeZone),
            ExportCell(context.latitude), ExportCell(context.longitude), ExportCell(context.place), ExportCell(context.country),
        ]
        var cells = fixed.enumerated().map { (column: $0.offset, cell: $0.element) }
        for (source, json) in sources {
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) else {
                cells.append((column(named: source), .text(json)))
                continue
            }
            flatten(value, path: source, into: &cells)
        }
        return cells.filter { $0.cell != .empty }.sorted { $0.column < $1.column }
    }

    private mutating func flatten(_ value: JSONValue, path: String, into cells: inout [(column: Int, cell: ExportCell)]) {
        switch value {
        case .object(let fields):
            for key in fields.keys.sorted() {
                flatten(fields[key]!, path: path + "." + key, into: &cells)
            }
        case .null: break
        case .bool(let flag): cells.append((column(named: path), .bool(flag)))
        case .number(let number): cells.append((column(named: path), .number(number)))
        case .string(let string): cells.append((column(named: path), .text(string)))
        case .array: cells.append((column(named: path), .text(AnswerRenderer.jsonText(value))))
        }
    }

    private mutating func column(named name: String) -> Int {
        if let index = columnIndex[name] { return index }
        let index = Self.fixedHeader.count + columns.count
        columns.append(name)
        columnIndex[name] = index
        return index
    }
}
