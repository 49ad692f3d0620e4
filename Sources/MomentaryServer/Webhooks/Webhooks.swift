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
        return trimmed
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
