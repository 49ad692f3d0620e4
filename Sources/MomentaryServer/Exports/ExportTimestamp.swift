import Foundation
import MomentaryCore

/// Instants as exports write them: ISO 8601 in UTC, `2026-03-29T08:14:00Z`, with milliseconds only
/// when the instant has a fraction of a second, exactly as the participant API writes them
/// (`WireCoding.string(from:)`). Computed arithmetically, because a million rows with several
/// dates each would spend most of their time in a general-purpose date formatter.
enum ExportTimestamp {
    static func text(_ date: Date) -> String {
        text(date, utcMarker: true)
    }

    /// A wall-clock time (`ExportCell.localDate`): the same without the trailing `Z`.
    static func localText(_ wallClock: Date) -> String {
        text(wallClock, utcMarker: false)
    }

    private static func text(_ date: Date, utcMarker: Bool) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, millisecondOfDay) = WallClock.floorDivide(Int(milliseconds), 86_400_000)
        let day = LocalDate(daysSinceEpoch: Int(days))
        let secondOfDay = Int(millisecondOfDay / 1000)
        let fraction = Int(millisecondOfDay % 1000)
        var text = pad(day.year, 4) + "-" + pad(day.month, 2) + "-" + pad(day.day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fraction != 0 { text += "." + pad(fraction, 3) }
        return utcMarker ? text + "Z" : text
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
