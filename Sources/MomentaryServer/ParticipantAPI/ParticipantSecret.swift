import Foundation
import MomentaryCore

/// Participant secrets: 20 random letters and digits (about 119 bits), stored only as a SHA-256
/// hash. A fast hash is enough for a secret this random: guessing 119 bits is out of reach
/// however fast each guess is. Passwords, which people choose, use Bcrypt.
enum ParticipantSecret {
    static let length = 20

    static func generate() -> String {
        SecretCode.generate(length: length, from: .alphanumeric)
    }

    static func hash(_ secret: String) -> String {
        BlobStore.sha256(Data(secret.utf8))
    }

    /// Compares in time independent of where the hashes differ.
    static func matches(_ secret: String, hash stored: String) -> Bool {
        let computed = Array(hash(secret).utf8)
        let expected = Array(stored.utf8)
        guard computed.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in computed.indices { difference |= computed[index] ^ expected[index] }
        return difference == 0
    }
}
