import Foundation

/// Random codes people read, type or click: participant secrets, invitation codes, download links
/// and generated passwords. Each kind has an alphabet chosen for how it is used.
public enum SecretCode {
    public struct Alphabet: Sendable {
        public let characters: [Character]
        public init(_ characters: String) { self.characters = Array(characters) }

        /// Letters and digits, for secrets a program stores and sends (participant secrets, passwords).
        public static let alphanumeric = Alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        /// Upper-case letters and digits without look-alikes (0/O, 1/I/L) and without vowels, so a
        /// code read aloud or copied from paper is unambiguous and never spells a word.
        public static let unambiguous = Alphabet("BCDFGHJKMNPQRSTVWXYZ23456789")
        /// Lower-case for links: no vowels and no 0 1 i o l.
        public static let link = Alphabet("bcdfghjkmnpqrstvwxyz23456789")
    }

    /// A code of `length` characters drawn uniformly from `alphabet`.
    public static func generate<G: RandomNumberGenerator>(length: Int, from alphabet: Alphabet, using generator: inout G) -> String {
        String((0..<length).map { _ in alphabet.characters[Int.random(in: 0..<alphabet.characters.count, using: &generator)] })
    }

    /// A code from the system's cryptographically secure generator.
    public static func generate(length: Int, from alphabet: Alphabet) -> String {
        var generator = SystemRandomNumberGenerator()
        return generate(length: length, from: alphabet, using: &generator)
    }

    /// Bits of randomness in a code of `length` characters from `alphabet`.
    public static func entropyBits(length: Int, alphabet: Alphabet) -> Double {
        Double(length) * log2(Double(alphabet.characters.count))
    }

    /// Groups a code in fours for display (`bcdf-ghjk-…`), as download links are shown.
    public static func grouped(_ code: String, size: Int = 4, separator: String = "-") -> String {
        var groups: [String] = []
        var current = ""
        for character in code {
            current.append(character)
            if current.count == size {
                groups.append(current)
                current = ""
            }
        }
        if !current.isEmpty { groups.append(current) }
        return groups.joined(separator: separator)
    }
}
