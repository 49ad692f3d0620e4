import Foundation

/// Checks the local date and time texts of date, time and date-time answers, without a calendar
/// or time zone: answers are wall-clock values as the participant entered them.
enum LocalDateTimeText {
    /// `YYYY-MM-DD`, a real Gregorian date (years 0001–9999).
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              year >= 1, (1...12).contains(month)
        else { return false }
        return (1...daysIn(month: month, year: year)).contains(day)
    }

    /// `HH:MM`, 00:00–23:59.
    static func isTime(_ text: String) -> Bool {
        TimeOfDay(text) != nil
    }

    /// `YYYY-MM-DDTHH:MM`, local, without seconds or zone.
    static func isDateTime(_ text: String) -> Bool {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        return parts.count == 2 && isDate(String(parts[0])) && isTime(String(parts[1]))
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }
}
