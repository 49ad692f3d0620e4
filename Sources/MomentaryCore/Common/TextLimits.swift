import Foundation

/// How long the texts a participant reads may be: long enough for any study, short enough that a
/// notification fits its push payload and a consent text loads on a phone. The website shows them
/// beside its fields; it, `studies import` and the survey editor refuse longer texts with this rule.
public enum TextLimits {
    public static let studyName = 200
    public static let consentText = 20_000
    /// Notifications: APNs and Web Push carry at most 4 KB, the alert with the rest of the payload.
    public static let alertText = 200
    public static let questionText = 2_000
    /// Options and slider labels.
    public static let optionText = 500

    /// Why `text` is too long for a field of at most `limit` characters (`label` names it), or nil.
    public static func problem(_ text: String, limit: Int, label: String) -> String? {
        guard text.count > limit else { return nil }
        return "\(label) is \(grouped(text.count)) characters long; at most \(grouped(limit)) are allowed"
    }

    /// 20,000: the website's and the messages' way of writing a count, whatever the server's locale.
    public static func grouped(_ count: Int) -> String {
        count.formatted(.number.locale(Locale(identifier: "en_US")))
    }

    /// The same for each language of a text (`label (de)` for the others).
    public static func problems(_ text: LocalizedText, limit: Int, label: String) -> [String] {
        if let plain = text.plain { return problem(plain, limit: limit, label: label).map { [$0] } ?? [] }
        return text.byLanguage.sorted { $0.key < $1.key }.compactMap { problem($0.value, limit: limit, label: "\(label) (\($0.key))") }
    }
}
