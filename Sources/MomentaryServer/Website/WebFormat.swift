import Foundation

/// How the website writes dates, durations and rates.
enum WebFormat {
    /// "2026-11-21 07:30 UTC": unambiguous for researchers in any time zone.
    static func dateTime(_ date: Date?) -> String {
        guard let date else { return "—" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    /// "2026-11-21 08:30 Europe/London": the wall-clock time where the participant was.
    static func localDateTime(_ date: Date?, in zone: TimeZone) -> String {
        guard let date else { return "—" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date) + " " + zone.identifier
    }

    /// "2026-11-21 08:30 Europe/London (07:30 UTC)": a time on the study's pages, in the study's
    /// zone and named, with UTC beside it (the date too when UTC is on another day).
    static func studyDateTime(_ date: Date?, in zone: TimeZone) -> String {
        guard let date else { return "—" }
        let local = localDateTime(date, in: zone)
        guard zone.secondsFromGMT(for: date) != 0 || zone.identifier != "UTC" else { return dateTime(date) }
        let utc = dateTime(date)
        let sameDay = utc.prefix(10) == local.prefix(10)
        return "\(local) (\(sameDay ? String(utc.dropFirst(11)) : utc))"
    }

    static func percent(_ rate: Double?) -> String {
        guard let rate else { return "—" }
        return "\(Int((rate * 100).rounded()))%"
    }

    static func duration(_ seconds: Double?) -> String {
        guard let seconds else { return "—" }
        if seconds < 90 { return "\(Int(seconds.rounded())) s" }
        if seconds < 5400 { return "\(Int((seconds / 60).rounded())) min" }
        return String(format: "%.1f h", seconds / 3600)
    }
}
