import Foundation

/// The HTTP Basic credentials issued at registration.
public struct ParticipantCredentials: Codable, Sendable, Hashable {
    public var participantID: UUID
    public var secret: String

    public init(participantID: UUID, secret: String) {
        self.participantID = participantID
        self.secret = secret
    }

    /// The `Authorization` header value. The id is written in lower case, as UUIDs usually are.
    public var authorizationHeader: String {
        let pair = "\(participantID.uuidString.lowercased()):\(secret)"
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    enum CodingKeys: String, CodingKey {
        case participantID = "participant_id"
        case secret
    }
}
