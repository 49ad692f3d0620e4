import Foundation
import MomentaryCore

/// The participant app's message catalogues (`Public/app/i18n/<tag>.json`), read by the server for
/// the words it writes to participants itself (status lines, its participant pages), so a
/// participant meets one wording in one language. Keys the server uses are listed by
/// Tests/Browser/test_catalogues.py, which checks every catalogue has them.
enum AppCatalogues {
    /// Catalogue → key → a text, or plural forms by CLDR category.
    private static let catalogues: [String: [String: JSONValue]] = {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("Public/app/i18n", isDirectory: true) else { return [:] }
        var all: [String: [String: JSONValue]] = [:]
        for tag in AppLanguages.supported {
            let url = folder.appendingPathComponent("\(tag).json")
            if let data = try? Data(contentsOf: url), case .object(let entries)? = try? JSONDecoder().decode(JSONValue.self, from: data) {
                all[tag] = entries
            }
        }
        return all
    }()

    /// The catalogue serving a participant's language: the same tag, its base language, or English.
    static func catalogue(for language: String?) -> String {
        language.flatMap { LanguageTag.match([$0], among: AppLanguages.supported) } ?? "en"
    }

    /// The text of `key` in the participant's language (English where a catalogue lacks it), with
    /// `{name}` placeholders filled; with `count`, the plural form the language uses for it.
    static func text(_ key: String, language: String?, _ values: [String: String] = [:], count: Int? = nil) -> String {
        let tag = catalogue(for: language)
        let entry = catalogues[tag]?[key] ?? catalogues["en"]?[key]
        var template: String
        switch entry {
        case .string(let text)?:
            template = text
        case .object(let forms)?:
            let category = PluralCategory.of(count ?? 0, in: tag)
            template = forms[category.rawValue]?.stringValue ?? forms["other"]?.stringValue ?? key
        default:
            template = key
        }
        var filled = values
        if let count { filled["count"] = String(count) }
        for (name, value) in filled { template = template.replacingOccurrences(of: "{\(name)}", with: value) }
        return template
    }
}

/// CLDR plural categories of whole numbers for the app's languages (what `Intl.PluralRules`
/// gives the app itself).
enum PluralCategory: String {
    case zero, one, two, few, many, other

    static func of(_ count: Int, in language: String) -> PluralCategory {
        switch LanguageTag.base(of: language) {
        case "zh": return .other
        case "fr": return count == 0 || count == 1 ? .one : .other
        case "ar":
            switch count {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default:
                let lastTwo = count % 100
                if (3...10).contains(lastTwo) { return .few }
                if (11...99).contains(lastTwo) { return .many }
                return .other
            }
        default: return count == 1 ? .one : .other
        }
    }
}
