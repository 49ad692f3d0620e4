import Foundation

/// Answer of `GET /api/v1/status`: the home-screen statistics (Mappiness `user_status`).
/// Undefined figures are written as JSON `null`, never left out, so apps can tell "none yet" apart
/// from an older server.
public struct ParticipantStatus: Codable, Sendable, Hashable {
    /// Responses stored so far (beeped and volunteered).
    public var responses: Int
    /// Answered beeps / beeps sent, ignored beeps excluded, 0…1; `nil` before any beep was sent.
    public var responseRate: Double?
    /// Median seconds from beep to response; `nil` before any beep was answered.
    public var typicalResponseSeconds: Double?
    /// The beep awaiting an answer, if any.
    public var pendingBeep: PendingBeep?
    /// A status line for the home screen.
    public var message: String?

    public init(responses: Int, responseRate: Double? = nil, typicalResponseSeconds: Double? = nil,
                pendingBeep: PendingBeep? = nil, message: String? = nil) {
        self.responses = responses
        self.responseRate = responseRate
        self.typicalResponseSeconds = typicalResponseSeconds
        self.pendingBeep = pendingBeep
        self.message = message
    }

    enum CodingKeys: String, CodingKey {
        case responses
        case responseRate = "response_rate"
        case typicalResponseSeconds = "typical_response_seconds"
        case pendingBeep = "pending_beep"
        case message
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(responses, forKey: .responses)
        try container.encode(responseRate, forKey: .responseRate)
        try container.encode(typicalResponseSeconds, forKey: .typicalResponseSeconds)
        try container.encode(pendingBeep, forKey: .pendingBeep)
        try container.encode(message, forKey: .message)
    }
}

public struct PendingBeep: Codable, Sendable, Hashable {
    public var id: UUID
    public var scheduledAt: Date
    /// When the beep stops being answerable (the next beep), if known.
    public var expiresAt: Date?

    public init(id: UUID, scheduledAt: Date, expiresAt: Date? = nil) {
        self.id = id
        self.scheduledAt = scheduledAt
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case scheduledAt = "scheduled_at"
        case expiresAt = "expires_at"
    }
}
