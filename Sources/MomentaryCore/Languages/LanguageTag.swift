import Foundation

/// BCP 47 language tags as studies and participants use them (`en`, `de-AT`, `zh-Hans`), and the
/// one rule for choosing among a study's languages: the first preference that names a language
/// exactly, else one whose base language it shares, else the study's default (its first).
public enum LanguageTag {
    /// Whether `tag` is a well-formed tag of the usual shape: a language of 2–3 letters, then
    /// optional script (4 letters), region (2 letters or 3 digits) and variants (5–8 letters or
    /// digits, or 4 beginning with a digit).
    public static func isWellFormed(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy(isASCIILetter) else {
            return false
        }
        return parts.dropFirst().allSatisfy { part in
            (part.count == 4 && part.allSatisfy(isASCIILetter))
                || (part.count == 2 && part.allSatisfy(isASCIILetter))
                || (part.count == 3 && part.allSatisfy(\.isASCIIDigitCharacter))
                || ((5...8).contains(part.count) && part.allSatisfy { isASCIILetter($0) || $0.isASCIIDigitCharacter })
                || (part.count == 4 && part.first!.isASCIIDigitCharacter && part.allSatisfy { isASCIILetter($0) || $0.isASCIIDigitCharacter })
        }
    }

    /// The language part: `de` of `de-AT`, `zh` of `zh-Hans`.
    public static func base(of tag: String) -> String {
        String(tag.split(separator: "-").first ?? Substring(tag)).lowercased()
    }

    /// The language of `available` that best serves `preferences` (most preferred first), or nil
    /// when none matches. Tags compare without regard to case. For each preference in turn: the
    /// same tag; else the tag that is its base language; else the first tag with that base.
    public static func match(_ preferences: [String], among available: [String]) -> String? {
        for preference in preferences {
            let wanted = preference.trimmingCharacters(in: .whitespaces)
            if let exact = available.first(where: { $0.caseInsensitiveCompare(wanted) == .orderedSame }) { return exact }
            let wantedBase = base(of: wanted)
            if let plain = available.first(where: { $0.lowercased() == wantedBase }) { return plain }
            if let sibling = available.first(where: { base(of: $0) == wantedBase }) { return sibling }
        }
        return nil
    }

    /// `match`, falling back to the first of `available` (a study's default language).
    public static func choose(_ preferences: [String], among available: [String]) -> String? {
        match(preferences, among: available) ?? available.first
    }

    /// The languages of an `Accept-Language` header, most preferred first (`q=0` ones left out,
    /// `*` ignored: it names nothing to match).
    public static func preferences(fromAcceptLanguage header: String) -> [String] {
        var weighted: [(tag: String, weight: Double, position: Int)] = []
        for (position, item) in header.split(separator: ",").enumerated() {
            let fields = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = fields.first, !tag.isEmpty, tag != "*" else { continue }
            var weight = 1.0
            for field in fields.dropFirst() where field.lowercased().hasPrefix("q=") {
                weight = Double(field.dropFirst(2)) ?? 0
            }
            if weight > 0 { weighted.append((tag, weight, position)) }
        }
        return weighted.sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.position < $1.position }.map(\.tag)
    }

    private static func isASCIILetter(_ character: Character) -> Bool {
        character.isASCII && character.isLetter
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
