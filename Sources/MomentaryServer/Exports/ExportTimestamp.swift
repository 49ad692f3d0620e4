import Foundation
import MomentaryCore

/// Instants as exports write them: ISO 8601 in UTC, always with milliseconds,
/// `2026-03-29T08:14:00.000Z`, so every value of every column has one format (a mix of values with
/// and without a fraction makes `pandas.to_datetime` fail without a format). Computed arithmetically (`CSVWriter.timestamp`), because a million
/// rows with several dates each would spend most of their time in a general-purpose date formatter.
enum ExportTimestamp {
    static func text(_ date: Date) -> String {
        text(date, utcMarker: true)
    }

    /// A wall-clock time (`ExportCell.localDate`): the same without the trailing `Z`.
    static func localText(_ wallClock: Date) -> String {
        text(wallClock, utcMarker: false)
    }

    private static func text(_ date: Date, utcMarker: Bool) -> String {
        var writer = CSVWriter(capacity: 24)
        writer.timestamp(date, utcMarker: utcMarker)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// An instant rounded to the millisecond, split into its day since 1970-01-01 (UTC), its second
    /// of that day and its millisecond.
    struct Parts {
        let day: Int
        let second: Int
        let millisecond: Int

        init(_ date: Date) {
            let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
            let (days, millisecondOfDay) = WallClock.floorDivide(Int(milliseconds), 86_400_000)
            day = days
            second = millisecondOfDay / 1000
            millisecond = millisecondOfDay % 1000
        }
    }
}
