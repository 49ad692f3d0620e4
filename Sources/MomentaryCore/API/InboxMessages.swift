import Foundation

/// Answer of `GET /api/v1/messages`: the participant's inbox.
public struct Inbox: Codable, Sendable, Hashable {
    /// The most recent messages, oldest first.
    public var messages: [InboxMessage]
    /// Whether the study takes replies (`POST /api/v1/messages`).
    public var repliesAllowed: Bool
    /// The researchers' messages not opened yet.
    public var unread: Int

    public init(messages: [InboxMessage], repliesAllowed: Bool, unread: Int) {
        self.messages = messages
        self.repliesAllowed = repliesAllowed
        self.unread = unread
    }

    enum CodingKeys: String, CodingKey {
        case messages
        case repliesAllowed = "replies_allowed"
        case unread
    }
}

/// One message: from the researchers (in the participant's language) or the participant's reply.
public struct InboxMessage: Codable, Sendable, Hashable {
    public var id: UUID
    /// `researchers` or `participant`.
    public var from: String
    public var text: String
    public var sentAt: Date
    /// When the participant opened it; null until then, and for their own replies.
    public var readAt: Date?
    public var inReplyTo: UUID?

    public init(id: UUID, from: String, text: String, sentAt: Date, readAt: Date?, inReplyTo: UUID?) {
        self.id = id
        self.from = from
        self.text = text
        self.sentAt = sentAt
        self.readAt = readAt
        self.inReplyTo = inReplyTo
    }

    enum CodingKeys: String, CodingKey {
        case id, from, text
        case sentAt = "sent_at"
        case readAt = "read_at"
        case inReplyTo = "in_reply_to"
    }

    /// Null values are written, not left out, so the app can rely on every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(from, forKey: .from)
        try container.encode(text, forKey: .text)
        try container.encode(sentAt, forKey: .sentAt)
        try container.encode(readAt, forKey: .readAt)
        try container.encode(inReplyTo, forKey: .inReplyTo)
    }
}

/// Body of `POST /api/v1/messages`: a participant's reply.
public struct MessageReply: Codable, Sendable, Hashable {
    public var text: String
    /// The researchers' message it answers, if the participant replied to one.
    public var inReplyTo: UUID?

    public init(text: String, inReplyTo: UUID? = nil) {
        self.text = text
        self.inReplyTo = inReplyTo
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case text
        case inReplyTo = "in_reply_to"
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A field the reply does not have (a misspelt `in_reply_to`, say) is refused by name, not ignored.
    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = all.allKeys.first(where: { CodingKeys(rawValue: $0.stringValue) == nil }) {
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: all,
                debugDescription: "a reply has no such field; expected " + CodingKeys.allCases.map { "“\($0.rawValue)”" }.joined(separator: " and ") + ".")
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        inReplyTo = try container.decodeIfPresent(UUID.self, forKey: .inReplyTo)
    }
}
