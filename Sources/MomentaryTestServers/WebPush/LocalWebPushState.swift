import Foundation

/// What the local push service knows: its subscriptions with their private keys, the answers the
/// tests asked for, and everything it accepted or refused.
actor LocalWebPushState {
    struct Entry {
        let subscription: WebPushTestSubscription
        let keys: WebPushReceiverKeys
        /// The VAPID key the subscription is restricted to (RFC 8292 §4.2), if any.
        let applicationServerKey: String?
        var cannedResponse: CannedWebPushResponse?
    }

    private var subscriptions: [String: Entry] = [:]
    private(set) var received: [ReceivedWebPushMessage] = []
    private(set) var refusals: [WebPushRefusal] = []

    func add(_ entry: Entry) {
        subscriptions[entry.subscription.id] = entry
    }

    func entry(_ id: String) -> Entry? {
        subscriptions[id]
    }

    func setCannedResponse(_ response: CannedWebPushResponse?, for id: String) {
        subscriptions[id]?.cannedResponse = response
    }

    func record(_ message: ReceivedWebPushMessage) {
        received.append(message)
    }

    func record(_ refusal: WebPushRefusal) {
        refusals.append(refusal)
    }
}
