import Crypto
import Foundation
import MomentaryCore

extension VAPID {
    /// The application server's P-256 key pair. Browsers subscribe with its public half
    /// (`applicationServerKey`); the private half signs every VAPID token.
    public struct KeyPair: Sendable {
        public let privateKey: P256.Signing.PrivateKey

        public init(privateKey: P256.Signing.PrivateKey) {
            self.privateKey = privateKey
        }

        /// Reads the raw 32-byte private scalar in base64url, the form `generate()` prints.
        public init(base64URLPrivateKey text: String) throws(VAPIDError) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let bytes = Base64URL.decode(trimmed) else {
                throw .invalidPrivateKey(reason: "it is not base64url (letters, digits, '-' and '_')")
            }
            guard bytes.count == 32 else {
                throw .invalidPrivateKey(reason: "it decodes to \(bytes.count) bytes, but a P-256 private key is 32 bytes")
            }
            do {
                privateKey = try P256.Signing.PrivateKey(rawRepresentation: bytes)
            } catch {
                throw .invalidPrivateKey(reason: "the 32 bytes are not a valid P-256 private scalar")
            }
        }

        /// Reads a PEM private key, SEC 1 (`EC PRIVATE KEY`) or PKCS #8 (`PRIVATE KEY`), as
        /// `openssl ecparam -name prime256v1 -genkey` writes it.
        public init(pem: String) throws(VAPIDError) {
            do {
                privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
            } catch {
                throw .invalidPrivateKey(reason: "the PEM text is not a P-256 private key (\(error))")
            }
        }

        /// A new random key pair; store `privateKeyBase64URL` and keep it, as browsers' subscriptions
        /// stop working when the key changes.
        public static func generate() -> KeyPair {
            KeyPair(privateKey: P256.Signing.PrivateKey())
        }

        /// The uncompressed public key (65 bytes) in base64url: the web app's `applicationServerKey`
        /// and the `k=` parameter of the Authorization header.
        public var publicKeyBase64URL: String {
            Base64URL.encode(privateKey.publicKey.x963Representation)
        }

        /// The raw 32-byte private scalar in base64url, the form `WEBPUSH_VAPID_PRIVATE_KEY` takes.
        public var privateKeyBase64URL: String {
            Base64URL.encode(privateKey.rawRepresentation)
        }

        public var pemRepresentation: String { privateKey.pemRepresentation }
    }
}
