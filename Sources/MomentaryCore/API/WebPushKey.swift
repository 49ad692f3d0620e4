/// Answer of `GET /api/v1/push/web-push-key`: the application server key a browser passes to
/// `pushManager.subscribe({applicationServerKey})`.
public struct WebPushKey: Codable, Sendable, Hashable {
    /// The VAPID public key: the uncompressed P-256 point (65 bytes), base64url without padding.
    public var publicKey: String

    public init(publicKey: String) {
        self.publicKey = publicKey
    }

    enum CodingKeys: String, CodingKey {
        case publicKey = "public_key"
    }
}
