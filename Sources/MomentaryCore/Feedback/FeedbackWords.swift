import Foundation

/// The words of a participant's feedback summary, in the participant's language. MomentaryCore
/// knows only English; the server passes the app's catalogues (`AppCatalogues`) for the others.
public struct FeedbackWords: Sendable {
    /// A text for a key, with `{name}` values filled and, given `count`, the plural form for it.
    public typealias Lookup = @Sendable (_ key: String, _ values: [String: String], _ count: Int?) -> String

    let lookup: Lookup

    public init(_ lookup: @escaping Lookup) {
        self.lookup = lookup
    }

    public func text(_ key: String, _ values: [String: String] = [:], count: Int? = nil) -> String {
        lookup(key, values, count)
    }

    /// English, as the catalogue `en.json` has these keys.
    public static let english = FeedbackWords { key, values, count in
        let count = count ?? 0
        var text: String
        switch key {
        case "feedback.no_slider": text = "This study’s survey has no slider question, so there is nothing to chart yet."
        case "feedback.by_time_of_day": text = "By time of day"
        case "survey.yes": text = "Yes"
        case "survey.no": text = "No"
        case "feedback.no_answers_yet": text = "No answers to “{question}” yet: your charts appear here once you have answered a few times."
        case "feedback.averages": text = count == 1 ? "Averages of your {count} answer to “{question}”." : "Averages of your {count} answers to “{question}”."
        case "feedback.omitted":
            text = count == 1
                ? "{count} category is left out because it has fewer than {minimum} answers."
                : "{count} categories are left out because they have fewer than {minimum} answers."
        default: text = key
        }
        for (name, value) in values.merging(["count": String(count)], uniquingKeysWith: { given, _ in given }) {
            text = text.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return text
    }
}
