import Foundation

/// One value of an exported table, typed so that each format can write it as it should: a number
/// as a number cell in a workbook, an instant as a date cell, and both as plain text in CSV.
enum ExportCell: Sendable, Equatable {
    case empty
    case text(String)
    case number(Double)
    case date(Date)
    case bool(Bool)

    init(_ value: String?) { self = value.map(ExportCell.text) ?? .empty }
    init(_ value: Double?) { self = value.map(ExportCell.number) ?? .empty }
    init(_ value: Int?) { self = value.map { .number(Double($0)) } ?? .empty }
    init(_ value: Date?) { self = value.map(ExportCell.date) ?? .empty }
    /// Ids are written in lower case, as people usually write UUIDs.
    init(id value: UUID?) { self = value.map { .text($0.uuidString.lowercased()) } ?? .empty }

    /// The value as CSV and JSON-free text: numbers without a needless `.0`, instants in ISO 8601
    /// UTC, booleans as `true` / `false`, nothing for an empty cell.
    var plainText: String {
        switch self {
        case .empty: ""
        case .text(let text): text
        case .number(let number): Self.numberText(number)
        case .date(let date): ExportTimestamp.text(date)
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    /// Whole numbers print as integers (72, not 72.0); others in Swift's shortest exact form.
    /// Non-finite numbers cannot occur in stored answers, and print empty if they ever do.
    static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "" }
        if number == number.rounded(), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return number.description
    }
}
