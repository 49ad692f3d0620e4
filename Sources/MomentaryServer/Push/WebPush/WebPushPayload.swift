import Foundation
import MomentaryCore

/// The JSON a beep's Web Push message carries, decrypted by the web app's service worker:
/// `{"alert":"…","badge":1,"beep_id":"…","expires_at":"…","sound":"…"}` (`sound` left out when the participant
/// chose none). A message from the researchers has `"kind":"message"` and `message_id` instead of
/// `beep_id`. The participant id stays out: the service worker does not need it.
struct WebPushPayload: Codable, Equatable {
    var beepID: String?
    var messageID: String?
    /// "message" for a message; absent for a beep (the older form the app has always read).
    var kind: String?
    var alert: String
    var sound: String?
    var badge: Int
    /// When the beep stops being answerable: the service worker closes its notification then.
    var expiresAt: String?

    enum CodingKeys: String, CodingKey {
        case beepID = "beep_id"
        case messageID = "message_id"
        case kind
        case alert, sound, badge
        case expiresAt = "expires_at"
    }

    init(_ message: PushMessage) {
        let id = message.id.uuidString.lowercased()
        beepID = message.kind == .beep ? id : nil
        messageID = message.kind == .message ? id : nil
        kind = message.kind == .message ? message.kind.rawValue : nil
        alert = message.alert
        sound = message.sound
        badge = message.badge
        expiresAt = message.expiresAt.map(WireCoding.string(from:))
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
