import Foundation

/// One value of an exported table, typed so that each format can write it as it should: a number
/// as a number cell in a workbook, an instant as a date cell, and both as plain text in CSV.
enum ExportCell: Sendable, Equatable {
    case empty
    case text(String)
    case number(Double)
    case date(Date)
    /// A wall-clock time where the participant was, held as the instant it would be in UTC, so
    /// that it prints without an offset (`2026-03-29T09:14:00`) and is a plain date cell in Excel.
    case localDate(Date)
    case bool(Bool)

    init(_ value: String?) { self = value.map(ExportCell.text) ?? .empty }
    init(_ value: Double?) { self = value.map(ExportCell.number) ?? .empty }
    init(_ value: Int?) { self = value.map { .number(Double($0)) } ?? .empty }
    init(_ value: Date?) { self = value.map(ExportCell.date) ?? .empty }
    /// The wall-clock time `date` showed in `zone` (daylight saving included), or empty.
    static func local(_ date: Date?, in zone: TimeZone) -> ExportCell {
        guard let date else { return .empty }
        return .localDate(date.addingTimeInterval(Double(zone.secondsFromGMT(for: date))))
    }

    /// Ids are written in lower case, as people usually write UUIDs.
    init(id value: UUID?) { self = value.map { .text($0.uuidString.lowercased()) } ?? .empty }

    /// The value as CSV and JSON-free text: numbers without a needless `.0`, instants in ISO 8601
    /// UTC (local times the same without the `Z`), booleans as `true` / `false`, nothing for an empty cell.
    var plainText: String {
        switch self {
        case .empty: ""
        case .text(let text): text
        case .number(let number): Self.numberText(number)
        case .date(let date): ExportTimestamp.text(date)
        case .localDate(let wallClock): ExportTimestamp.localText(wallClock)
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    /// The plain text, or nil for an empty cell (JSON writes null).
    var textOrNil: String? { self == .empty ? nil : plainText }

    /// Whole numbers print as integers (72, not 72.0); others in Swift's shortest exact form
    /// (`ExportBytes.number`).
    static func numberText(_ number: Double) -> String {
        var bytes: [UInt8] = []
        ExportBytes.number(number, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Numbers as UTF-8 bytes, the one place their export text is defined: CSV, workbook cells and
/// `ExportCell.numberText` all write through here, appending to a reusable buffer instead of
/// building a `String` per value.
enum ExportBytes {
    /// Whole numbers as integers (72, not 72.0); others in Swift's shortest exact form. Non-finite
    /// numbers cannot occur in stored answers, and write nothing if they ever do.
    static func number(_ value: Double, into bytes: inout [UInt8]) {
        guard value.isFinite else { return }
        if value == value.rounded(), abs(value) < 1e15 {
            digits(Int(value), width: 1, into: &bytes)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    /// Decimal digits of `value`, zero-padded to at least `width` (after a `-` if negative).
    static func digits(_ value: Int, width: Int, into bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var remaining = value.magnitude
        var divisor: UInt = 1
        var count = 1
        while remaining / divisor >= 10 {
            divisor *= 10
            count += 1
        }
        for _ in count..<max(count, width) { bytes.append(UInt8(ascii: "0")) }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining / divisor))
            remaining %= divisor
            divisor /= 10
        }
    }
}
