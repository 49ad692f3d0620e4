import Foundation
import MomentaryCore

/// The study settings form, both as posted and as shown (times as "HH:MM", sounds comma-separated).
struct StudyForm: Codable {
    var slug: String
    var name: String
    var consentText: String
    /// Present ("on") when the checkbox is ticked.
    var invitationOnly: String?
    var scheduling: String
    var defaultTimeZone: String
    var minGapMinutes: Int
    var minBeepsPerDay: Int
    var maxBeepsPerDay: Int
    var defaultBeepsPerDay: Int
    var defaultStart: String
    var defaultEnd: String
    var alertText: String
    var sounds: String

    init(_ study: Study) {
        slug = study.slug
        name = study.name
        consentText = study.consentText
        invitationOnly = study.invitationOnly ? "on" : nil
        scheduling = study.scheduling.rawValue
        defaultTimeZone = study.defaultTimeZone
        minGapMinutes = study.minGapMinutes
        minBeepsPerDay = study.minBeepsPerDay
        maxBeepsPerDay = study.maxBeepsPerDay
        defaultBeepsPerDay = study.defaultBeepsPerDay
        defaultStart = Self.clock(study.defaultStartMinutes)
        defaultEnd = Self.clock(study.defaultEndMinutes)
        alertText = study.alertText
        let names = (try? JSONDecoder().decode([String].self, from: Data(study.sounds.utf8))) ?? []
        sounds = names.joined(separator: ", ")
    }

    static func clock(_ minutes: Int) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// Minutes after midnight for "HH:MM", or nil when it is not a time of day.
    static func minutes(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":")
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
              (0...24).contains(hours), (0..<60).contains(minutes), hours * 60 + minutes <= 24 * 60
        else { return nil }
        return hours * 60 + minutes
    }

    var soundNames: [String] {
        sounds.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Every reason the form cannot be saved, each naming the field.
    func problems() -> [String] {
        var problems: [String] = []
        if let problem = StudySlug.problem(slug) { problems.append("Slug: \(problem).") }
        if name.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("Name: give the study a name.") }
        if consentText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problems.append("Consent text: participants must be told what they agree to.") }
        if !["server", "device"].contains(scheduling) { problems.append("Scheduling: choose server or device, not “\(scheduling)”.") }
        if TimeZone(identifier: defaultTimeZone) == nil { problems.append("Default time zone: “\(defaultTimeZone)” is not a time zone name such as Europe/Berlin.") }
        if !(0...24 * 60).contains(minGapMinutes) { problems.append("Minimum gap: must be between 0 and 1440 minutes, not \(minGapMinutes).") }
        if !(1...50).contains(minBeepsPerDay) || !(minBeepsPerDay...50).contains(maxBeepsPerDay) {
            problems.append("Beeps per day: the range must lie within 1 to 50 with the minimum not above the maximum (got \(minBeepsPerDay)–\(maxBeepsPerDay)).")
        } else if !(minBeepsPerDay...maxBeepsPerDay).contains(defaultBeepsPerDay) {
            problems.append("Default beeps per day: \(defaultBeepsPerDay) is outside the allowed range \(minBeepsPerDay)–\(maxBeepsPerDay).")
        }
        let start = Self.minutes(defaultStart), end = Self.minutes(defaultEnd)
        if start == nil { problems.append("Default start: “\(defaultStart)” is not a time such as 08:00.") }
        if end == nil { problems.append("Default end: “\(defaultEnd)” is not a time such as 22:00.") }
        if let start, let end, start >= end { problems.append("Default hours: the start (\(defaultStart)) must be before the end (\(defaultEnd)).") }
        if alertText.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("Alert text: the notification needs a text.") }
        if soundNames.isEmpty { problems.append("Sounds: list at least one sound name, for example default.") }
        return problems
    }

    /// Copies a valid form onto the study.
    func apply(to study: Study, now: Date) {
        study.name = name.trimmingCharacters(in: .whitespaces)
        study.consentText = consentText
        study.invitationOnly = invitationOnly != nil
        study.scheduling = scheduling == "device" ? .device : .server
        study.defaultTimeZone = defaultTimeZone
        study.minGapMinutes = minGapMinutes
        study.minBeepsPerDay = minBeepsPerDay
        study.maxBeepsPerDay = maxBeepsPerDay
        study.defaultBeepsPerDay = defaultBeepsPerDay
        study.defaultStartMinutes = Self.minutes(defaultStart) ?? study.defaultStartMinutes
        study.defaultEndMinutes = Self.minutes(defaultEnd) ?? study.defaultEndMinutes
        study.alertText = alertText
        study.sounds = String(decoding: (try? JSONEncoder().encode(soundNames)) ?? Data("[]".utf8), as: UTF8.self)
        study.updatedAt = now
    }
}
