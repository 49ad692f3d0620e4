import Foundation

/// A question id names a column in every export and is what `display_if` refers to, so it must
/// be a name R, pandas, SPSS and Stata take as is: ASCII letters, digits and `_`, starting with
/// a letter, at most 64 characters. Documents saved before the rule keep working (exports quote
/// such names); a change to them asks for the rename first.
public enum QuestionIdentifier {
    public static let maximumLength = 64
    public static let rule = "letters, digits and _ only, starting with a letter, at most 64 characters"

    public static func isValid(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, id.unicodeScalars.count <= maximumLength, isLetter(first) else { return false }
        return id.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// What is wrong with a non-empty id that breaks the rule, with a name that keeps it, or nil.
    public static func issue(with id: String) -> String? {
        guard !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, !isValid(id) else { return nil }
        return "question_id “\(id)” is not a plain name (\(rule)); rename it, for example to “\(suggestion(for: id))”"
    }

    /// The id with every other character made `_` (letters lose their accents), starting with a
    /// letter and cut to the longest length.
    public static func suggestion(for id: String) -> String {
        let plain = id.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        var name = String(String.UnicodeScalarView(plain.unicodeScalars.map {
            isLetter($0) || ("0"..."9").contains($0) ? $0 : "_"
        }))
        while name.contains("__") { name = name.replacingOccurrences(of: "__", with: "_") }
        name = String(name.drop { $0 == "_" })
        if let first = name.unicodeScalars.first, !isLetter(first) { name = "q_" + name }
        if name.isEmpty { name = "question" }
        while name.hasSuffix("_") && name.count > 1 { name.removeLast() }
        return String(name.prefix(maximumLength))
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
