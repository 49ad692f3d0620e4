import Foundation
import MomentaryCore

/// The survey builder's fields for a question's texts in the study's other languages, shown beside
/// the default language's: `translation_<tag>_text`, `_min_label`, `_max_label` and `_options`
/// (one a line, in the order of the default language's options).
struct QuestionTranslationFields: Codable, Sendable {
    var tag: String
    /// The language's name in English and its tag: "German (de)".
    var name: String
    var text: String = ""
    var minLabel: String = ""
    var maxLabel: String = ""
    var options: String = ""

    init(tag: String) {
        self.tag = tag
        name = Self.displayName(of: tag)
    }

    static func displayName(of tag: String) -> String {
        let name = Locale(identifier: "en").localizedString(forIdentifier: tag) ?? tag
        return "\(name) (\(tag))"
    }

    /// Every other language of the study, filled from the posted form.
    static func read(_ posted: [String: String], languages: [String]) -> [QuestionTranslationFields] {
        languages.dropFirst().map { tag in
            var fields = QuestionTranslationFields(tag: tag)
            let prefix = "translation_\(tag)_"
            fields.text = posted[prefix + "text"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            fields.minLabel = posted[prefix + "min_label"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            fields.maxLabel = posted[prefix + "max_label"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            fields.options = posted[prefix + "options"] ?? ""
            return fields
        }
    }

    /// Every other language of the study, filled from a question.
    static func of(_ question: SurveyQuestion, languages: [String]) -> [QuestionTranslationFields] {
        languages.dropFirst().map { tag in
            var fields = QuestionTranslationFields(tag: tag)
            fields.text = question.text.given(in: tag, languages: languages) ?? ""
            if case .slider(let scale) = question.kind {
                fields.minLabel = scale.minLabel?.given(in: tag, languages: languages) ?? ""
                fields.maxLabel = scale.maxLabel?.given(in: tag, languages: languages) ?? ""
            }
            fields.options = question.kind.options.map { $0.text.given(in: tag, languages: languages) ?? "" }
                .joined(separator: "\n")
            return fields
        }
    }
}

extension QuestionForm {
    /// `defaultText` in the default language and each translation's non-empty text: a plain
    /// string when no translation is given, else an object of language tags.
    static func localized(
        _ defaultText: String, languages: [String], translations: [QuestionTranslationFields],
        _ field: (QuestionTranslationFields) -> String
    ) -> JSONValue {
        let given = translations.filter { !field($0).isEmpty }
        guard !given.isEmpty else { return .string(defaultText) }
        var texts: [String: JSONValue] = [languages[0]: .string(defaultText)]
        for translation in given { texts[translation.tag] = .string(field(translation)) }
        return .object(texts)
    }

    /// The options as JSON with their translations; a translated option keeps what answers store
    /// by getting its default text as `value` when it has none.
    static func localizedOptions(
        _ lines: [String], languages: [String], translations: [QuestionTranslationFields]
    ) -> JSONValue {
        let translatedLines = translations.map { translation in
            (translation, translation.options.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return .array(lines.enumerated().map { index, line in
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            var option: [String: JSONValue] = [:]
            var texts: [String: JSONValue] = [:]
            for (translation, lines) in translatedLines where index < lines.count && !lines[index].isEmpty {
                texts[translation.tag] = .string(lines[index])
            }
            if texts.isEmpty {
                option["text"] = .string(parts[0])
            } else {
                texts[languages[0]] = .string(parts[0])
                option["text"] = .object(texts)
            }
            if parts.count == 2, !parts[1].isEmpty {
                option["value"] = .string(parts[1])
            } else if !texts.isEmpty {
                option["value"] = .string(parts[0])
            }
            return .object(option)
        })
    }
}
