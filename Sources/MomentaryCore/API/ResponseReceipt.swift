import Foundation

/// Answer of `POST /api/v1/responses`: 201 when stored, 200 with the same body when the
/// idempotency key was already used (a retried upload).
public struct ResponseReceipt: Codable, Sendable, Hashable {
    public var responseID: UUID
    /// `true` when no beep was answered.
    public var volunteered: Bool
    /// Seconds from the beep to submission; `null` for a volunteered response.
    public var delaySeconds: Double?

    public init(responseID: UUID, volunteered: Bool, delaySeconds: Double? = nil) {
        self.responseID = responseID
        self.volunteered = volunteered
        self.delaySeconds = delaySeconds
    }

    enum CodingKeys: String, CodingKey {
        case responseID = "response_id"
        case volunteered
        case delaySeconds = "delay_seconds"
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(responseID, forKey: .responseID)
        try container.encode(volunteered, forKey: .volunteered)
        try container.encode(delaySeconds, forKey: .delaySeconds)
    }
}

/// Answer of `POST /api/v1/responses/{id}/photo` (201).
public struct PhotoReceipt: Codable, Sendable, Hashable {
    public var photoID: UUID

    public init(photoID: UUID) {
        self.photoID = photoID
    }

    enum CodingKeys: String, CodingKey {
        case photoID = "photo_id"
    }
}
