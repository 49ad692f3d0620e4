import Foundation

/// The development push channel: every beep becomes one JSON line appended to a file, which the
/// command-line participant (`momentary participant listen`) tails. Nothing leaves the machine.
///
/// Each line is `{"alert","badge","beep_id","participant_id","sent_at","sound"}` (keys sorted,
/// `sent_at` in ISO 8601 UTC with milliseconds, `sound` null for the default); a message from the
/// researchers has `message_id` instead of `beep_id`. The file is opened
/// in append mode for every line and written with one call, so lines from concurrent sends, and
/// from several worker processes sharing the file, never interleave; the actor serialises this
/// process's writers.
public actor OutboxChannel: PushChannel {
    public nonisolated let name = "outbox"
    public nonisolated let path: String
    private let timeSource: any TimeSource

    public init(path: String, timeSource: any TimeSource = SystemTimeSource()) {
        self.path = path
        self.timeSource = timeSource
    }

    /// `MOMENTARY_PUSH_OUTBOX` when set, else `push-outbox.jsonl` in the data directory.
    public static func defaultPath(
        dataDirectory: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let path = environment["MOMENTARY_PUSH_OUTBOX"], !path.isEmpty { return path }
        return dataDirectory.appendingPathComponent("push-outbox.jsonl").path
    }

    public func send(_ message: PushMessage, to target: PushTarget) async -> PushOutcome {
        let line = OutboxLine(message: message, sentAt: timeSource.now())
        do {
            try append(line.jsonLine())
            return .accepted(statusCode: nil, serviceID: nil)
        } catch {
            return .rejected(statusCode: nil, reason: "could not write the outbox file \(path): \(error)", retryable: false)
        }
    }

    private func append(_ data: Data) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw OutboxWriteError(reason: String(cString: strerror(errno)))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: data)
    }
}

/// One line of the outbox file.
public struct OutboxLine: Codable, Sendable, Hashable {
    /// The beep's id; nil for a message from the researchers, which has `messageID`.
    public var beepID: UUID?
    public var messageID: UUID?
    public var participantID: UUID
    public var alert: String
    public var sound: String?
    public var badge: Int
    public var sentAt: Date

    public init(message: PushMessage, sentAt: Date) {
        beepID = message.kind == .beep ? message.id : nil
        messageID = message.kind == .message ? message.id : nil
        participantID = message.participantID
        alert = message.alert
        sound = message.sound
        badge = message.badge
        self.sentAt = sentAt
    }

    enum CodingKeys: String, CodingKey {
        case beepID = "beep_id", messageID = "message_id", participantID = "participant_id", alert, sound, badge, sentAt = "sent_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        beepID = try container.decodeIfPresent(UUID.self, forKey: .beepID)
        messageID = try container.decodeIfPresent(UUID.self, forKey: .messageID)
        participantID = try container.decode(UUID.self, forKey: .participantID)
        alert = try container.decode(String.self, forKey: .alert)
        sound = try container.decodeIfPresent(String.self, forKey: .sound)
        badge = try container.decode(Int.self, forKey: .badge)
        let text = try container.decode(String.self, forKey: .sentAt)
        guard let date = (try? Date(text, strategy: Self.instantStyle)) ?? (try? Date(text, strategy: .iso8601)) else {
            throw DecodingError.dataCorruptedError(forKey: .sentAt, in: container, debugDescription: "“\(text)” is not an ISO 8601 instant.")
        }
        sentAt = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(beepID, forKey: .beepID)
        try container.encodeIfPresent(messageID, forKey: .messageID)
        try container.encode(participantID, forKey: .participantID)
        try container.encode(alert, forKey: .alert)
        try container.encode(sound, forKey: .sound)  // null, not absent, for the default sound
        try container.encode(badge, forKey: .badge)
        try container.encode(sentAt.formatted(Self.instantStyle), forKey: .sentAt)
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-21T09:30:00.125Z`.
    static let instantStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The line as written: compact JSON with sorted keys and a newline.
    public func jsonLine() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}

struct OutboxWriteError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
