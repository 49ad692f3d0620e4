import Foundation
import MomentaryCore

/// How a participant's push registration is stored in `participants`: `push_channel`,
/// `push_token` (APNs device token, or Web Push endpoint) and `push_keys` (JSON: the APNs
/// environment, or the Web Push subscription keys).
struct ParticipantPushFields: Equatable {
    var channel: String
    var token: String?
    var keys: String?

    init(_ registration: PushRegistration) {
        switch registration {
        case .apns(let token, let environment):
            self.init(channel: "apns", token: token.lowercased(), keys: Self.json(["environment": environment.rawValue]))
        case .webPush(let subscription):
            self.init(channel: "webpush", token: subscription.endpoint,
                      keys: Self.json(["p256dh": subscription.keys.p256dh, "auth": subscription.keys.auth]))
        case .none:
            self.init(channel: "none", token: nil, keys: nil)
        }
    }

    init(channel: String, token: String?, keys: String?) {
        self.channel = channel
        self.token = token
        self.keys = keys
    }

    func apply(to participant: Participant) {
        participant.pushChannel = channel
        participant.pushToken = token
        participant.pushKeys = keys
        // A new token is a fresh start: an earlier "unregistered" no longer applies.
        participant.pushHealth = nil
        participant.active = true
    }

    private static func json(_ object: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
