import Foundation
import SQLKit
import SQLiteNIO

/// Runs an export's query and hands back its rows as values by position. On an SQLite file the
/// rows are read by a connection of the export's own (`ExportSource`), straight from SQLite on a
/// thread-pool thread: through SQLKit each row is handed to the event loop one at a time and every
/// column is looked up by name and decoded through a dynamic cast, which profiles showed cost more
/// than the rest of the export (figures: BENCHMARKS.md, `momentary-bench export`); through
/// SQLiteNIO each row still carried its columns' names.
/// Elsewhere (PostgreSQL, an in-memory SQLite database) columns are decoded by name through
/// SQLKit, in the same shape.
struct ExportRows {
    enum Kind: Sendable {
        case text, integer, real, bool, date, uuid
    }

    /// The query's result columns in order, as named in its SELECT list.
    let columns: [(name: String, kind: Kind)]

    func read(_ query: SQLQueryString, from source: ExportSource) async throws -> [ExportRow] {
        let kinds = columns.map(\.kind)
        if let rows = try await source.readDirectly(query, each: { values in
            var row: [ExportValue] = []
            row.reserveCapacity(kinds.count)
            for index in 0..<min(values.count, kinds.count) {
                row.append(Self.value(values[index], as: kinds[index]))
            }
            return ExportRow(values: row)
        }) {
            return rows
        }
        return try await source.sql.raw(query).all().map { row in
            ExportRow(values: try columns.map { column in try Self.value(of: column.name, as: column.kind, in: row) })
        }
    }

    private static func value(_ data: SQLiteData, as kind: Kind) -> ExportValue {
        switch (data, kind) {
        case (.null, _): .null
        case (.text(let text), .uuid): UUID(hexText: text).map(ExportValue.uuid) ?? .text(text)
        case (.text(let text), .date): Date(sqliteData: data).map(ExportValue.date) ?? .text(text)
        case (.float(let seconds), .date): .date(Date(timeIntervalSince1970: seconds))
        case (.integer(let seconds), .date): .date(Date(timeIntervalSince1970: Double(seconds)))
        case (.integer(let number), .bool): .bool(number != 0)
        case (.integer(let number), .real): .real(Double(number))
        case (.integer(let number), _): .integer(number)
        case (.float(let number), .integer): .integer(Int(number))
        case (.float(let number), _): .real(number)
        case (.text(let text), _): .text(text)
        case (.blob, _): .null
        }
    }

    private static func value(of column: String, as kind: Kind, in row: any SQLRow) throws -> ExportValue {
        if try row.decodeNil(column: column) { return .null }
        return switch kind {
        case .text: .text(try row.decode(column: column, as: String.self))
        case .integer: .integer(try row.decode(column: column, as: Int.self))
        case .real: .real(try row.decode(column: column, as: Double.self))
        case .bool: .bool(try row.decode(column: column, as: Bool.self))
        case .date: .date(try row.decode(column: column, as: Date.self))
        case .uuid: .uuid(try row.decode(column: column, as: UUID.self))
        }
    }
}

enum ExportValue: Sendable {
    case null, integer(Int), real(Double), text(String), bool(Bool), date(Date), uuid(UUID)
}

/// One result row of `ExportRows`, its values read by position.
struct ExportRow: Sendable {
    let values: [ExportValue]

    func text(_ index: Int) -> String? {
        switch values[index] {
        case .text(let text): text
        case .integer(let number): String(number)
        case .real(let number): String(number)
        default: nil
        }
    }

    func integer(_ index: Int) -> Int? {
        switch values[index] {
        case .integer(let number): number
        case .real(let number): Int(number)
        case .bool(let flag): flag ? 1 : 0
        case .text(let text): Int(text)
        default: nil
        }
    }

    func real(_ index: Int) -> Double? {
        switch values[index] {
        case .real(let number): number
        case .integer(let number): Double(number)
        case .text(let text): Double(text)
        default: nil
        }
    }

    func bool(_ index: Int) -> Bool? {
        switch values[index] {
        case .bool(let flag): flag
        case .integer(let number): number != 0
        default: nil
        }
    }

    func date(_ index: Int) -> Date? {
        if case .date(let date) = values[index] { return date }
        return nil
    }

    func uuid(_ index: Int) -> UUID? {
        if case .uuid(let id) = values[index] { return id }
        return nil
    }

    /// Reads the value or fails with the column's position, for columns that are never NULL.
    func required<T>(_ index: Int, _ read: (Int) -> T?) throws -> T {
        guard let value = read(index) else { throw ExportRowError(index: index, value: values[index]) }
        return value
    }
}

struct ExportRowError: Error, CustomStringConvertible {
    let index: Int
    let value: ExportValue
    var description: String { "Unexpected value in column \(index) of an export query: \(value)" }
}
