import Foundation

/// A text a participant reads, in one or more languages. A document gives it either as a plain
/// string, the study's default language, or as an object of language tags:
/// `{"en": "How happy are you?", "de": "Wie glücklich sind Sie?"}`.
public struct LocalizedText: Sendable, Hashable {
    /// The text given as a plain string (the default language); nil for the object form.
    public var plain: String?
    /// The texts of the object form, by language tag as written.
    public var byLanguage: [String: String]

    public init(_ text: String) {
        plain = text
        byLanguage = [:]
    }

    public init(byLanguage: [String: String]) {
        plain = nil
        self.byLanguage = byLanguage
    }

    /// Whether the document gave this text by language.
    public var isTranslated: Bool { plain == nil }

    /// The text where no study says which language is wanted: the plain text, else the one of
    /// the alphabetically first tag. Readers with a study at hand use `resolved(for:languages:)`.
    public var text: String {
        plain ?? byLanguage.min { $0.key < $1.key }?.value ?? ""
    }

    /// The text in the study language chosen for `preferences` (`LanguageTag.choose`); where that
    /// language has no text, the default language's (`languages` first); where that too is
    /// missing, `text`.
    public func resolved(for preferences: [String], languages: [String]) -> String {
        let chosen = LanguageTag.choose(preferences, among: languages)
        return chosen.flatMap { given(in: $0, languages: languages) }
            ?? languages.first.flatMap { given(in: $0, languages: languages) }
            ?? text
    }

    /// The text given for exactly this language, if any; a plain text counts as the default's.
    public func given(in language: String, languages: [String]) -> String? {
        if let plain {
            return language.caseInsensitiveCompare(languages.first ?? language) == .orderedSame ? plain : nil
        }
        return byLanguage.first { $0.key.caseInsensitiveCompare(language) == .orderedSame }?.value
    }

    /// The study's languages this text lacks (a blank text counts as missing).
    public func missingLanguages(of languages: [String]) -> [String] {
        languages.filter { (given(in: $0, languages: languages) ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }

    /// Tags of the object form that are not among the study's languages.
    public func unknownLanguages(of languages: [String]) -> [String] {
        byLanguage.keys.filter { key in !languages.contains { $0.caseInsensitiveCompare(key) == .orderedSame } }.sorted()
    }

    /// The same text with only the resolved language left, as a plain string.
    public func localized(for preferences: [String], languages: [String]) -> LocalizedText {
        LocalizedText(resolved(for: preferences, languages: languages))
    }
}

extension LocalizedText: ExpressibleByStringLiteral, CustomStringConvertible {
    public init(stringLiteral value: String) { self.init(value) }
    public var description: String { text }
}

extension LocalizedText {
    /// Reads a plain string or an object of strings; nil for any other value.
    public init?(json: JSONValue) {
        switch json {
        case .string(let text):
            self.init(text)
        case .object(let object):
            var texts: [String: String] = [:]
            for (tag, value) in object {
                guard let text = value.stringValue else { return nil }
                texts[tag] = text
            }
            guard !texts.isEmpty else { return nil }
            self.init(byLanguage: texts)
        default:
            return nil
        }
    }

    public var json: JSONValue {
        if let plain { return .string(plain) }
        return .object(byLanguage.mapValues(JSONValue.string))
    }

    /// Problems with the form itself: tags that are not language tags.
    public var malformedTags: [String] {
        byLanguage.keys.filter { !LanguageTag.isWellFormed($0) }.sorted()
    }
}

extension LocalizedText: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let text = LocalizedText(json: try container.decode(JSONValue.self)) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "A text must be a string or an object of language tags and strings.")
        }
        self = text
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(json)
    }
}
