import Foundation

/// The one way a random secret (participant secret, download code, password-reset link, access
/// token) is stored: its SHA-256 in hex. A fast hash is enough because every such secret is
/// generated with 100+ random bits; passwords, which people choose, use Bcrypt instead.
enum SecretHash {
    static func of(_ secret: String) -> String {
        BlobStore.sha256(Data(secret.utf8))
    }

    /// Compares a presented secret with a stored hash in time independent of where they differ.
    static func matches(_ secret: String, hash stored: String) -> Bool {
        let computed = Array(of(secret).utf8)
        let expected = Array(stored.utf8)
        guard computed.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in computed.indices { difference |= computed[index] ^ expected[index] }
        return difference == 0
    }
}
