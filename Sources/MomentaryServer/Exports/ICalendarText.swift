import Foundation

/// iCalendar (RFC 5545) for responses (the study's, or a participant's own): one event per response, at the instant it
/// was started (written in UTC, which calendar apps show in local time), lasting until it was
/// submitted (at least five minutes so it is visible), titled with the feedback question's text
/// as the participant read it and their answer, else with the survey's name.
enum ICalendarText {
    static func header(name: String) -> String {
        lines(["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Momentary//Responses//EN", "CALSCALE:GREGORIAN",
               "METHOD:PUBLISH", "X-WR-CALNAME:" + escape(name)])
    }

    static let footer = lines(["END:VCALENDAR"])

    static func event(_ item: ResponseInWords, now: Date) -> String {
        let record = item.record
        let end = max(record.submittedAt, record.startedAt.addingTimeInterval(5 * 60))
        let summary = item.feedback.map { "\($0.question.trimmingCharacters(in: .whitespacesAndNewlines)) \(FeedbackCharts.number($0.value))" }
            ?? record.surveyName
        var fields = [
            "BEGIN:VEVENT", "UID:\(record.responseID.uuidString.lowercased())@momentary", "DTSTAMP:\(stamp(now))",
            "DTSTART:\(stamp(record.startedAt))", "DTEND:\(stamp(end))", "SUMMARY:" + escape(summary),
            "DESCRIPTION:" + escape(item.answerLines.joined(separator: "\n")),
        ]
        if let point = item.coordinates { fields.append("GEO:\(point.latitude);\(point.longitude)") }
        if let place = record.context?.place, !place.isEmpty { fields.append("LOCATION:" + escape(place)) }
        fields.append("END:VEVENT")
        return lines(fields)
    }

    /// `20261124T093000Z`.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// TEXT values escape backslash, semicolon, comma and newline (RFC 5545 §3.3.11).
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n": result += "\\n"
            case "\r": continue
            default: result.append(character)
            }
        }
        return result
    }

    /// Content lines end in CRLF and are folded after 75 octets, never inside a UTF-8 character.
    static func lines(_ contentLines: [String]) -> String {
        contentLines.map(fold).joined()
    }

    static func fold(_ line: String) -> String {
        var result = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            if octets + size > 75 {
                result += "\r\n "
                octets = 1
            }
            result.append(character)
            octets += size
        }
        return result + "\r\n"
    }
}
