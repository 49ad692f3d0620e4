import Foundation

/// The secret of a personal data-download link: 16 characters of the link alphabet
/// (no vowels, no 0 1 i o l), about 77 bits from the system's secure generator, shown in groups of
/// four (`bcdf-ghjk-mnpq-rstv`).
public enum DownloadCode {
    public static let length = 16

    /// A new code, grouped for display.
    public static func generate() -> String {
        SecretCode.grouped(SecretCode.generate(length: length, from: .link))
    }

    /// The code's 16 characters without separators, or nil when `text` cannot be a code (wrong
    /// length or a character outside the alphabet). Case and hyphens are forgiven.
    public static func canonical(_ text: String) -> String? {
        let characters = text.lowercased().filter { $0 != "-" }
        guard characters.count == length, characters.allSatisfy(SecretCode.Alphabet.link.characters.contains) else { return nil }
        return characters
    }
}
