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
    /// Whether the study shows the participant their own charts (`GET /api/v1/feedback`).
    public var feedbackAvailable: Bool
    /// Whether the study lets participants turn on a download link, and whether theirs is on.
    public var dataDownloadAvailable: Bool
    public var dataDownloadEnabled: Bool
    /// The air and pollen risk at the participant's latest located answer of the last 24 hours,
    /// once the server has attached its environment; nil otherwise (and from older servers).
    public var environment: EnvironmentRisk?
    /// The participant's language (one of the study's); nil from older servers.
    public var language: String? = nil
    /// The researchers' messages the participant has not opened yet (0 from older servers).
    public var unreadMessages: Int = 0
    /// The participant's randomised arm, only when the study shows arms to participants; left
    /// out otherwise.
    public var arm: String? = nil

    public init(responses: Int, responseRate: Double? = nil, typicalResponseSeconds: Double? = nil,
                pendingBeep: PendingBeep? = nil, message: String? = nil,
                feedbackAvailable: Bool = false, dataDownloadAvailable: Bool = false, dataDownloadEnabled: Bool = false,
                environment: EnvironmentRisk? = nil, language: String? = nil, unreadMessages: Int = 0, arm: String? = nil) {
        self.responses = responses
        self.responseRate = responseRate
        self.typicalResponseSeconds = typicalResponseSeconds
        self.pendingBeep = pendingBeep
        self.message = message
        self.feedbackAvailable = feedbackAvailable
        self.dataDownloadAvailable = dataDownloadAvailable
        self.dataDownloadEnabled = dataDownloadEnabled
        self.environment = environment
        self.language = language
        self.unreadMessages = unreadMessages
        self.arm = arm
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        responses = try container.decode(Int.self, forKey: .responses)
        responseRate = try container.decodeIfPresent(Double.self, forKey: .responseRate)
        typicalResponseSeconds = try container.decodeIfPresent(Double.self, forKey: .typicalResponseSeconds)
        pendingBeep = try container.decodeIfPresent(PendingBeep.self, forKey: .pendingBeep)
        message = try container.decodeIfPresent(String.self, forKey: .message)
        // Older servers do not send these: nothing is offered then.
        feedbackAvailable = try container.decodeIfPresent(Bool.self, forKey: .feedbackAvailable) ?? false
        dataDownloadAvailable = try container.decodeIfPresent(Bool.self, forKey: .dataDownloadAvailable) ?? false
        dataDownloadEnabled = try container.decodeIfPresent(Bool.self, forKey: .dataDownloadEnabled) ?? false
        environment = try container.decodeIfPresent(EnvironmentRisk.self, forKey: .environment)
        language = try container.decodeIfPresent(String.self, forKey: .language)
        unreadMessages = try container.decodeIfPresent(Int.self, forKey: .unreadMessages) ?? 0
        arm = try container.decodeIfPresent(String.self, forKey: .arm)
    }

    enum CodingKeys: String, CodingKey {
        case responses
        case responseRate = "response_rate"
        case typicalResponseSeconds = "typical_response_seconds"
        case pendingBeep = "pending_beep"
        case message
        case feedbackAvailable = "feedback_available"
        case dataDownloadAvailable = "data_download_available"
        case dataDownloadEnabled = "data_download_enabled"
        case environment, language
        case unreadMessages = "unread_messages"
        case arm
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(responses, forKey: .responses)
        try container.encode(responseRate, forKey: .responseRate)
        try container.encode(typicalResponseSeconds, forKey: .typicalResponseSeconds)
        try container.encode(pendingBeep, forKey: .pendingBeep)
        try container.encode(message, forKey: .message)
        try container.encode(feedbackAvailable, forKey: .feedbackAvailable)
        try container.encode(dataDownloadAvailable, forKey: .dataDownloadAvailable)
        try container.encode(dataDownloadEnabled, forKey: .dataDownloadEnabled)
        try container.encode(environment, forKey: .environment)
        try container.encode(language, forKey: .language)
        try container.encode(unreadMessages, forKey: .unreadMessages)
        try container.encodeIfPresent(arm, forKey: .arm)
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
