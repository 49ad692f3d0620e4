import Crypto
import Foundation

/// A provider signing key like the `.p8` file Apple issues, with made-up key and team ids:
/// tests write it to disk for `APNS_KEY_FILE` and give its public half to `LocalAPNsServer`.
public struct APNsTestKey: Sendable {
    public let privateKey: P256.Signing.PrivateKey
    public let keyID: String
    public let teamID: String

    public init(keyID: String = "ABC123DEFG", teamID: String = "TEAM123456") {
        self.init(privateKey: P256.Signing.PrivateKey(), keyID: keyID, teamID: teamID)
    }

    public init(privateKey: P256.Signing.PrivateKey, keyID: String, teamID: String) {
        self.privateKey = privateKey
        self.keyID = keyID
        self.teamID = teamID
    }

    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// The key as Apple's `.p8` files hold it: PKCS #8, PEM.
    public var p8PEM: String { privateKey.pemRepresentation }

    /// Writes the `.p8` PEM to `path`.
    public func writeP8(to path: String) throws {
        try Data(p8PEM.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
