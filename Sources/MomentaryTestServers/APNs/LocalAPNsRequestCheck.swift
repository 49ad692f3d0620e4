import Crypto
import Foundation

/// What the local APNs server expects of every request: the provider key it trusts, the key and
/// team ids, and the app's topic.
public struct LocalAPNsExpectations: Sendable {
    public var publicKey: P256.Signing.PublicKey
    public var keyID: String
    public var teamID: String
    public var topic: String

    public init(publicKey: P256.Signing.PublicKey, keyID: String, teamID: String, topic: String) {
        self.publicKey = publicKey
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
    }

    public init(key: APNsTestKey, topic: String) {
        self.init(publicKey: key.publicKey, keyID: key.keyID, teamID: key.teamID, topic: topic)
    }
}

/// The checks APNs makes before accepting a notification, in the order it makes them, each
/// failing with the status and reason APNs documents for it.
struct LocalAPNsRequestCheck {
    /// APNs refuses provider tokens issued more than an hour ago.
    static let maximumTokenAge = 3600
    static let maximumPayloadSize = 4096

    let expectations: LocalAPNsExpectations

    /// The device token in `/3/device/<token>`, or nil for any other path.
    static func deviceToken(inPath path: String) -> String? {
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    /// The first problem with the request, or nil when APNs would accept it.
    func problem(
        method: String, path: String, headers: [String: String], body: Data,
        token: Result<LocalAPNsJWT, LocalAPNsJWT.Failure>?, now: Date
    ) -> LocalAPNsReply? {
        guard method == "POST" else { return LocalAPNsReply(status: 405, reason: "MethodNotAllowed") }
        guard let deviceToken = Self.deviceToken(inPath: path) else { return LocalAPNsReply(status: 404, reason: "BadPath") }
        guard !deviceToken.isEmpty else { return LocalAPNsReply(status: 400, reason: "MissingDeviceToken") }
        guard deviceToken.count.isMultiple(of: 2),
              deviceToken.unicodeScalars.allSatisfy({ $0.isASCII && Character($0).isHexDigit })
        else { return .badDeviceToken }

        if let problem = tokenProblem(token, now: now) { return problem }

        guard let topic = headers["apns-topic"] else { return LocalAPNsReply(status: 400, reason: "MissingTopic") }
        guard topic == expectations.topic else { return LocalAPNsReply(status: 400, reason: "TopicDisallowed") }
        guard headers["apns-push-type"] == "alert" else { return LocalAPNsReply(status: 400, reason: "InvalidPushType") }
        guard headers["apns-priority"] == "10" else { return LocalAPNsReply(status: 400, reason: "BadPriority") }
        guard let expiration = headers["apns-expiration"], let seconds = Int(expiration), seconds >= 0 else {
            return LocalAPNsReply(status: 400, reason: "BadExpirationDate")
        }
        guard let apnsID = headers["apns-id"], UUID(uuidString: apnsID) != nil else {
            return LocalAPNsReply(status: 400, reason: "BadMessageId")
        }
        // APNs takes at most 64 bytes of collapse identifier.
        if let collapseID = headers["apns-collapse-id"], collapseID.utf8.count > 64 {
            return LocalAPNsReply(status: 400, reason: "BadCollapseId")
        }

        guard !body.isEmpty else { return LocalAPNsReply(status: 400, reason: "PayloadEmpty") }
        guard body.count <= Self.maximumPayloadSize else { return .payloadTooLarge }
        guard let payload = LocalAPNsPayload(json: body), payload.alert != nil else {
            // APNs documents no reason for malformed JSON; this server names it plainly.
            return LocalAPNsReply(status: 400, reason: "BadPayload")
        }
        return nil
    }

    private func tokenProblem(_ token: Result<LocalAPNsJWT, LocalAPNsJWT.Failure>?, now: Date) -> LocalAPNsReply? {
        switch token {
        case nil:
            return LocalAPNsReply(status: 403, reason: "MissingProviderToken")
        case .failure:
            return .invalidProviderToken
        case .success(let claims):
            guard claims.keyID == expectations.keyID, claims.issuer == expectations.teamID else {
                return .invalidProviderToken
            }
            let age = Int(now.timeIntervalSince1970) - claims.issuedAt
            if age > Self.maximumTokenAge { return .expiredProviderToken }
            // A token from the future means a wrong clock; a minute of skew is tolerated.
            if age < -60 { return .invalidProviderToken }
            return nil
        }
    }
}
