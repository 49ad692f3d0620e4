import Foundation
import MomentaryCore

/// The JSON a beep's Web Push message carries, decrypted by the web app's service worker:
/// `{"alert":"…","badge":1,"beep_id":"…","expires_at":"…","sound":"…"}` (`sound` left out when the participant
/// chose none). The participant id stays out: the service worker does not need it.
struct WebPushPayload: Codable, Equatable {
    var beepID: String
    var alert: String
    var sound: String?
    var badge: Int
    /// When the beep stops being answerable: the service worker closes its notification then.
    var expiresAt: String?

    enum CodingKeys: String, CodingKey {
        case beepID = "beep_id"
        case alert, sound, badge
        case expiresAt = "expires_at"
    }

    init(_ message: PushMessage) {
        beepID = message.beepID.uuidString.lowercased()
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
