import Fluent
import Foundation
import MomentaryCore

/// Adding and removing a study's webhooks: the one place their rules live, for the website (and
/// any later API or command).
enum Webhooks {
    static let maximumPerStudy = 10
    static let maximumURLLength = 500
    static let secretPrefix = "whsec_"

    struct Refusal: Error, CustomStringConvertible, Equatable {
        let description: String
    }

    /// The address as given, if a webhook may be sent there: HTTPS, or HTTP to this machine only
    /// (a receiver under development); no user name or password in it.
    static func checkedURL(_ text: String) throws(Refusal) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= maximumURLLength, let url = URLComponents(string: trimmed),
              let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            throw Refusal(description: "Address: a whole address such as https://lab.example.org/momentary-events (at most \(maximumURLLength) characters).")
        }
        guard url.user == nil, url.password == nil else {
            throw Refusal(description: "Address: leave out the user name and password; check the signature of each delivery instead.")
        }
        let local = ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
        guard scheme == "https" || (scheme == "http" && local) else {
            throw Refusal(description: "Address: use https:// (plain http:// only to this machine, for a receiver under development).")
        }
        guard !isPrivateNetworkAddress(host) else {
            throw Refusal(description: "Address: \(host) is an address of a private network; a webhook goes to a public address (or to this machine, for a receiver under development).")
        }
        return trimmed
    }

    /// Whether `host` is a literal IP address of a private, link-local or unspecified range
    /// (10/8, 172.16/12, 192.168/16, 169.254/16 with the clouds' metadata services, 100.64/10,
    /// 0/8, fc00::/7, fe80::/10), so a webhook cannot be aimed into the server's own network.
    /// Names are not resolved here; loopback stays allowed for receivers under development.
    static func isPrivateNetworkAddress(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        if octets.count == 4, octets.allSatisfy({ $0.map { (0...255).contains($0) } ?? false }) {
            let (a, b) = (octets[0]!, octets[1]!)
            return a == 10 || a == 0 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
                || (a == 169 && b == 254) || (a == 100 && (64...127).contains(b))
        }
        guard bare.contains(":") else { return false }
        return bare.hasPrefix("fc") || bare.hasPrefix("fd") || bare.hasPrefix("fe8") || bare.hasPrefix("fe9")
            || bare.hasPrefix("fea") || bare.hasPrefix("feb") || bare == "::" || bare.hasPrefix("::ffff:")
    }

    static func create(
        in study: Study, url text: String, events: [String], by researcher: String, on db: any Database, now: Date
    ) async throws -> (Webhook, secret: String) {
        let url = try checkedURL(text)
        let chosen = events.compactMap(WebhookEvent.init(rawValue:))
        guard !chosen.isEmpty, chosen.count == events.count else {
            throw Refusal(description: "Events: choose at least one of \(WebhookEvent.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let studyID = try study.requireID()
        guard try await Webhook.query(on: db).filter(\.$study.$id == studyID).count() < maximumPerStudy else {
            throw Refusal(description: "A study has at most \(maximumPerStudy) webhooks; delete one first.")
        }
        let secret = secretPrefix + SecretCode.generate(length: 32, from: .alphanumeric)
        let webhook = Webhook()
        webhook.$study.id = studyID
        webhook.url = url
        webhook.secret = secret
        webhook.eventsText = WebhookEvent.stored(Array(Set(chosen)))
        webhook.createdAt = now
        webhook.createdBy = researcher
        try await webhook.create(on: db)
        return (webhook, secret)
    }
}
