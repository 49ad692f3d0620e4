import Foundation

/// Where a participant's beeps go: the channel name and the target within it, read from the
/// participant's `push_channel`, `push_token` and `push_keys` columns.
///
/// The columns follow one convention (the registration API writes them so):
/// - `apns`: token = hex device token; keys = `{"environment":"production"|"sandbox"}`
///   (no keys means production);
/// - `webpush`: token = the subscription's endpoint URL; keys = `{"p256dh":"…","auth":"…"}`;
/// - `outbox` and `none`: no token.
public struct PushAddress: Sendable, Hashable {
    public var channel: String
    public var target: PushTarget

    public init(channel: String, target: PushTarget) {
        self.channel = channel
        self.target = target
    }

    /// Reads the three columns; a row that breaks the convention is an error naming what is wrong.
    public static func parse(channel: String, token: String?, keys: String?) throws(PushAddressError) -> PushAddress {
        switch channel {
        case "apns":
            guard let token, !token.isEmpty else { throw PushAddressError("the APNs device token is missing") }
            guard token.count.isMultiple(of: 2), token.allSatisfy(\.isHexDigit) else {
                throw PushAddressError("the APNs device token is not hexadecimal")
            }
            let environment = try keys.map { text throws(PushAddressError) in
                try stringMember("environment", of: text, channel: "APNs")
            } ?? "production"
            guard environment == "production" || environment == "sandbox" else {
                throw PushAddressError("the APNs environment is “\(environment)”, expected production or sandbox")
            }
            return PushAddress(channel: channel, target: .apns(deviceToken: token.lowercased(), sandbox: environment == "sandbox"))
        case "webpush":
            guard let token, let endpoint = URL(string: token), endpoint.scheme?.lowercased() == "https", endpoint.host != nil else {
                throw PushAddressError("the Web Push endpoint is not an https URL")
            }
            guard let keys else { throw PushAddressError("the Web Push subscription keys are missing") }
            let p256dh = try stringMember("p256dh", of: keys, channel: "Web Push")
            let auth = try stringMember("auth", of: keys, channel: "Web Push")
            return PushAddress(channel: channel, target: .webPush(endpoint: endpoint, p256dh: p256dh, auth: auth))
        default:
            return PushAddress(channel: channel, target: .none)
        }
    }

    private static func stringMember(_ name: String, of json: String, channel: String) throws(PushAddressError) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw PushAddressError("the \(channel) keys are not a JSON object")
        }
        guard let value = object[name] as? String, !value.isEmpty else {
            throw PushAddressError("the \(channel) keys lack “\(name)”")
        }
        return value
    }
}

/// A participant's push columns do not describe a usable address.
public struct PushAddressError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension PushAddress {
    /// The address of a participant row.
    init(participant: Participant) throws(PushAddressError) {
        self = try PushAddress.parse(
            channel: participant.pushChannel, token: participant.pushToken, keys: participant.pushKeys)
    }
}
