import Foundation

/// The languages a study offers: BCP 47 tags, the first the default (the language of plain texts).
public enum StudyLanguages {
    public static let `default` = ["en"]

    /// Everything wrong with a study's list, each one sentence; empty when it can be used.
    public static func problems(_ languages: [String]) -> [String] {
        guard !languages.isEmpty else { return ["languages must list at least one language (the first is the default)"] }
        var problems: [String] = []
        var seen: Set<String> = []
        for tag in languages {
            if !LanguageTag.isWellFormed(tag) {
                problems.append("languages: “\(tag)” is not a language tag such as en, de or pt-BR")
            } else if LanguageTag.match([tag], among: AppLanguages.supported) == nil {
                problems.append("languages: the participant app has no catalogue for “\(tag)” (it has "
                    + AppLanguages.supported.joined(separator: ", ") + ")")
            }
            if !seen.insert(tag.lowercased()).inserted {
                problems.append("languages: “\(tag)” is listed twice")
            }
        }
        return problems
    }

    /// The study language a participant asked for, as the study writes it; nil when not offered.
    public static func offered(_ requested: String, in languages: [String]) -> String? {
        languages.first { $0.caseInsensitiveCompare(requested) == .orderedSame }
    }

    /// Why a participant cannot choose `requested`, or nil when the study offers it.
    public static func refusal(_ requested: String, in languages: [String]) -> String? {
        guard offered(requested, in: languages) == nil else { return nil }
        return "“\(requested.prefix(35))” is not a language of this study; it offers " + languages.joined(separator: ", ") + "."
    }

    /// Problems of one text against the study's languages, naming it `label` (`consent_text`).
    /// `includingUnknown`: also texts in languages the study does not offer (a typo in a document;
    /// on a running study, what is left of a language it stopped offering, which harms nobody).
    public static func problems(
        of text: LocalizedText, label: String, languages: [String], includingUnknown: Bool = true
    ) -> [String] {
        var problems: [String] = []
        let missing = text.missingLanguages(of: languages)
        if !missing.isEmpty, missing.count < languages.count || text.isTranslated {
            problems.append("\(label) has no text in " + missing.joined(separator: ", "))
        }
        let unknown = text.unknownLanguages(of: languages)
        if includingUnknown, !unknown.isEmpty {
            problems.append("\(label) has a text in " + unknown.joined(separator: ", ") + ", which the study does not offer")
        }
        return problems
    }
}
