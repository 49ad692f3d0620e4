import Foundation

/// The JSON body of a beep's notification:
/// `{"aps":{"alert":"…","sound":"…","badge":1},"beep_id":"…"}`.
///
/// `beep_id` sits beside `aps` (custom keys must stay outside it) so the app can open the survey
/// for exactly this beep.
struct APNsPayload: Encodable, Equatable {
    struct APS: Encodable, Equatable {
        var alert: String
        var sound: String
        var badge: Int
    }

    /// APNs refuses larger bodies (413 PayloadTooLarge) for ordinary remote notifications.
    static let maximumSize = 4096

    var aps: APS
    var beepID: String

    enum CodingKeys: String, CodingKey {
        case aps
        case beepID = "beep_id"
    }

    init(_ message: PushMessage) {
        // Without a sound name iOS stays silent; "default" asks for the system's own sound.
        aps = APS(alert: message.alert, sound: message.sound ?? "default", badge: message.badge)
        beepID = message.beepID.uuidString.lowercased()
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
