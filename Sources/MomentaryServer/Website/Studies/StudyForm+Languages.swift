import Foundation
import MomentaryCore

/// The study's own texts in one of its other languages, as the settings form shows them beside
/// the default language's (`translation_<tag>_name`, `_consent_text`, `_alert_text`, `_reminder_alert_text`).
struct StudyTranslationFields: Codable, Sendable, Equatable {
    var tag: String
    /// The language's name in English and its tag: "German (de)".
    var name: String
    var texts: [String: String] = [:]

    init(tag: String) {
        self.tag = tag
        name = QuestionTranslationFields.displayName(of: tag)
    }

    /// Each other language of `languages`, filled from the study.
    static func of(_ study: Study, languages: [String]) -> [StudyTranslationFields] {
        languages.dropFirst().map { tag in
            var fields = StudyTranslationFields(tag: tag)
            for field in StudyText.allCases {
                fields.texts[field.rawValue] = study.localizedText(of: field)?.given(in: tag, languages: languages) ?? ""
            }
            return fields
        }
    }

    /// Each other language of `languages`, filled from the posted form.
    static func read(_ posted: [String: String], languages: [String]) -> [StudyTranslationFields] {
        languages.dropFirst().map { tag in
            var fields = StudyTranslationFields(tag: tag)
            for field in StudyText.allCases {
                fields.texts[field.rawValue] = posted["translation_\(tag)_\(field.rawValue)"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            }
            return fields
        }
    }
}

extension StudyForm {
    /// The languages as typed ("en, de"): the first the default.
    var languageList: [String] {
        (languages ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    /// A field's texts: the default language's as typed in its own input, the others' from the
    /// translation fields (left out where empty; the readiness check lists what is missing).
    func localizedText(_ defaultText: String?, of field: StudyText) -> LocalizedText? {
        guard let defaultText else { return nil }
        let list = languageList
        var texts: [String: String] = [:]
        for translation in translations ?? [] where list.dropFirst().contains(translation.tag) {
            if let text = translation.texts[field.rawValue], !text.isEmpty { texts[translation.tag] = text }
        }
        guard !texts.isEmpty, let first = list.first else { return LocalizedText(defaultText) }
        texts[first] = defaultText
        return LocalizedText(byLanguage: texts)
    }
}
