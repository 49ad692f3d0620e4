import Foundation

/// Instants as people read them, "Tue 24 Nov 2026, 09:31", in a given zone. Making a
/// `DateFormatter` costs far more than formatting with one, so an export keeps one per zone here
/// for all its rows. Not shared between tasks.
final class LocalTimeText {
    private var formatters: [String: DateFormatter] = [:]

    func text(_ date: Date, in zone: TimeZone) -> String {
        if let formatter = formatters[zone.identifier] { return formatter.string(from: date) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "EEE d MMM yyyy, HH:mm"
        formatters[zone.identifier] = formatter
        return formatter.string(from: date)
    }
}
