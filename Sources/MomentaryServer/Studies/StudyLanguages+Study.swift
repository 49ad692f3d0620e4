import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// Which language to give a study's texts in: the wanted ones, most preferred first (a
/// participant's language, a browser's `Accept-Language`), among the study's languages.
struct TextLanguage: Sendable {
    let preferences: [String]
    let languages: [String]

    /// The study language the texts come in.
    var chosen: String { LanguageTag.choose(preferences, among: languages) ?? languages[0] }

    func text(_ text: LocalizedText) -> String { text.resolved(for: preferences, languages: languages) }

    /// A participant's language among their study's.
    static func of(participant id: UUID, on db: any Database) async throws -> TextLanguage {
        struct Row: Decodable { let language: String?; let languages: String }
        let row = try await db.sql.raw("""
            SELECT p.language AS language, s.languages AS languages FROM participants AS p JOIN studies AS s ON s.id = p.study_id
            WHERE p.id = \(bind: id)
            """).first(decoding: Row.self)
        let languages = row.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.languages.utf8)) } ?? StudyLanguages.default
        return TextLanguage(preferences: row?.language.map { [$0] } ?? [], languages: languages.isEmpty ? StudyLanguages.default : languages)
    }
}

/// The study's own texts a participant reads, by the field names of study documents.
enum StudyText: String, CaseIterable, Sendable {
    case name
    case consentText = "consent_text"
    case alertText = "alert_text"
    case reminderAlertText = "reminder_alert_text"
}

extension Study {
    /// The study's languages, the first the default; `["en"]` if the stored list cannot be read.
    var languages: [String] {
        Self.languages(stored: languagesJSON)
    }

    /// The languages in a stored `languages` column; `["en"]` when nil, unreadable or empty.
    /// Also for readers that query the column without loading the model (exports).
    static func languages(stored text: String?) -> [String] {
        let list = text.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        return list?.isEmpty == false ? list! : StudyLanguages.default
    }

    var defaultLanguage: String { languages[0] }

    /// Texts of the other languages, by field and tag.
    var translations: [String: [String: String]] {
        (try? JSONDecoder().decode([String: [String: String]].self, from: Data(translationsJSON.utf8))) ?? [:]
    }

    /// The default language's text of a field (its column), nil when the study has none.
    func defaultText(of field: StudyText) -> String? {
        switch field {
        case .name: name
        case .consentText: consentText
        case .alertText: alertText
        case .reminderAlertText: reminderAlertText
        }
    }

    /// A field's texts in every language given, as study documents write them: a plain string
    /// when only the default language has one.
    func localizedText(of field: StudyText) -> LocalizedText? {
        guard let text = defaultText(of: field) else { return nil }
        let others = translations[field.rawValue] ?? [:]
        guard !others.isEmpty else { return LocalizedText(text) }
        return LocalizedText(byLanguage: others.merging([defaultLanguage: text]) { _, defaultText in defaultText })
    }

    /// Texts for a participant of this language (nil: the default).
    func textLanguage(of participantLanguage: String?) -> TextLanguage {
        TextLanguage(preferences: participantLanguage.map { [$0] } ?? [], languages: languages)
    }

    /// A field in the language chosen for `language`.
    func text(of field: StudyText, in language: TextLanguage) -> String? {
        localizedText(of: field).map(language.text)
    }

    /// Stores the languages and a field's texts: the default language's in the column, the rest
    /// in `translations`. The texts were checked against the languages before.
    func setLanguages(_ languages: [String]) {
        languagesJSON = Self.jsonText(languages)
    }

    func setText(_ text: LocalizedText?, of field: StudyText) {
        let languages = self.languages
        let defaultText = text.map { $0.given(in: languages[0], languages: languages) ?? $0.text }
        switch field {
        case .name: name = defaultText ?? ""
        case .consentText: consentText = defaultText ?? ""
        case .alertText: alertText = defaultText ?? ""
        case .reminderAlertText: reminderAlertText = defaultText
        }
        var all = translations
        let others = (text?.byLanguage ?? [:]).filter { $0.key.caseInsensitiveCompare(languages[0]) != .orderedSame }
        all[field.rawValue] = others.isEmpty ? nil : others
        translationsJSON = Self.jsonText(all)
    }

    /// The language a participant chose, checked against the study's (nil: the default).
    func participantLanguage(_ requested: String?, field: String = "language") throws -> String {
        guard let requested else { return defaultLanguage }
        if let refusal = StudyLanguages.refusal(requested, in: languages) { throw APIError.invalid(refusal, field: field) }
        return StudyLanguages.offered(requested, in: languages) ?? defaultLanguage
    }

    /// Every study text lacking one of the study's languages, each one sentence.
    var translationProblems: [String] {
        StudyText.allCases.flatMap { field in
            localizedText(of: field).map {
                StudyLanguages.problems(of: $0, label: field.rawValue, languages: languages, includingUnknown: false)
            } ?? []
        }
    }

    private static func jsonText<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }
}
