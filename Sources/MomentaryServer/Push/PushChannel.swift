import Foundation

/// A push service that can deliver a beep to a participant's device: APNs, Web Push, or the
/// development outbox. The dispatcher picks one by the participant's `push_channel`.
public protocol PushChannel: Sendable {
    /// The `push_channel` value this channel serves (`apns`, `webpush`, `outbox`).
    var name: String { get }
    /// Hands one notification to the service and reports what it said. Never throws: every
    /// failure is an outcome the dispatcher records.
    func send(_ message: PushMessage, to target: PushTarget) async -> PushOutcome
    /// Closes what the channel opened itself (a connection, a client, an event loop). Shutting
    /// down twice does nothing more.
    func shutdown() async
}

extension PushChannel {
    /// A channel that opens nothing of its own has nothing to close.
    public func shutdown() async {}
}

/// What a notification is about: a beep to answer, or a message from the researchers.
public enum PushKind: String, Sendable, Hashable, Codable {
    case beep, message
}

/// What a notification says.
public struct PushMessage: Sendable, Hashable, Codable {
    /// The beep's id, or the message's for kind `message`: the notification's identity at the
    /// push service, so a notification sent again replaces itself.
    public var id: UUID
    public var kind: PushKind
    public var participantID: UUID
    /// The alert text, e.g. "How do you feel? Please tell us as soon as you safely can."
    public var alert: String
    /// The sound the participant chose; nil for the platform default.
    public var sound: String?
    /// Badge number shown on the app icon (Mappiness: always 1).
    public var badge: Int
    /// After this instant the push service should drop the notification undelivered.
    public var expiresAt: Date?

    public init(id: UUID, kind: PushKind = .beep, participantID: UUID, alert: String, sound: String?, badge: Int = 1, expiresAt: Date?) {
        self.id = id
        self.kind = kind
        self.participantID = participantID
        self.alert = alert
        self.sound = sound
        self.badge = badge
        self.expiresAt = expiresAt
    }
}

/// Where a participant's notifications go.
public enum PushTarget: Sendable, Hashable {
    /// An APNs device token (hex) and the environment it was issued for.
    case apns(deviceToken: String, sandbox: Bool)
    /// A Web Push subscription: the push service endpoint and the browser's keys (base64url).
    case webPush(endpoint: URL, p256dh: String, auth: String)
    /// No push service: the development outbox (or nothing at all).
    case none
}

/// What happened when a notification was handed to a push service.
public enum PushOutcome: Sendable, Hashable {
    /// Accepted for delivery; `serviceID` is the service's id for it when it gives one.
    case accepted(statusCode: Int?, serviceID: String?)
    /// Refused. `retryable` says whether sending again later may succeed (429, 5xx, network).
    case rejected(statusCode: Int?, reason: String, retryable: Bool)
    /// The service says the token or subscription is no longer valid (APNs 410, Web Push 404/410):
    /// the participant is marked inactive and their pending beeps are cancelled.
    case unregistered(statusCode: Int?, reason: String)

    /// A short word for logs, metrics and the `delivery_outcome` column.
    public var label: String {
        switch self {
        case .accepted: "accepted"
        case .rejected: "rejected"
        case .unregistered: "unregistered"
        }
    }
}
