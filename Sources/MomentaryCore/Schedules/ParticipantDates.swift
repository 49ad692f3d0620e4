import Foundation

/// The named dates a study keeps for each participant (Beiwe's "interventions": a baseline visit,
/// a surgery), from which fixed rules count days (`FixedScheduleRule.relative(day:time:to:)`).
/// The study lists the names; researchers set each participant's dates; a rule whose date a
/// participant has not got plans nothing for them.
public enum ParticipantDates {
    public static let maximumNames = 20
    public static let maximumNameLength = 60
    /// About ten years either side: further is a typing mistake, not a protocol.
    public static let maximumDayOffset = 3660

    /// Why `name` cannot name a date, or nil when it can.
    public static func nameProblem(_ name: String) -> String? {
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "a date's name must not be empty" }
        if name != name.trimmingCharacters(in: .whitespacesAndNewlines) {
            return "the date's name “\(name)” starts or ends with a space"
        }
        if name.count > maximumNameLength { return "the date's name “\(name)” is longer than \(maximumNameLength) characters" }
        if name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) {
            return "the date's name “\(name)” contains a line break or another control character"
        }
        return nil
    }

    /// What is wrong with a study's list of names, one message each.
    public static func problems(_ names: [String]) -> [String] {
        var problems = names.compactMap(nameProblem)
        if names.count > maximumNames { problems.append("a study may name at most \(maximumNames) participant dates, not \(names.count)") }
        var seen = Set<String>()
        for name in names where !seen.insert(name.lowercased()).inserted {
            problems.append("the participant date “\(name)” is named twice")
        }
        return problems
    }

    /// The names `document`'s rules count from, each once, in the order first used.
    public static func names(usedBy document: FixedScheduleDocument) -> [String] {
        var used: [String] = []
        for case .relative(_, _, let name?) in document.rules where !used.contains(name) { used.append(name) }
        return used
    }

    /// The names `document`'s rules count from that the study does not list.
    public static func unknownNames(in document: FixedScheduleDocument, names: [String]) -> [String] {
        Self.names(usedBy: document).filter { !names.contains($0) }
    }

    /// One message per date `document`'s rules count from that the study does not name: the
    /// rule of the website's schedule page and of study import.
    public static func scheduleProblems(_ document: FixedScheduleDocument, names: [String]) -> [String] {
        let named = names.isEmpty ? "the study names no participant dates" : "the study's participant dates are " + names.map { "“\($0)”" }.joined(separator: ", ")
        return unknownNames(in: document, names: names).map { "a rule counts from the date “\($0)”, which is not one of them (\(named))" }
    }

    /// A participant's dates as stored: a JSON object of names and `YYYY-MM-DD` dates. Text that
    /// is not such an object (a hand edit) reads as no dates, so planning goes on.
    public static func decode(_ text: String?) -> [String: LocalDate] {
        guard let data = text?.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: String] else { return [:] }
        return object.compactMapValues(LocalDate.init)
    }

    /// The stored form of `dates`, keys sorted so equal dates are equal text; nil when empty.
    public static func encode(_ dates: [String: LocalDate]) -> String? {
        guard !dates.isEmpty else { return nil }
        let object = dates.mapValues(\.description)
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
