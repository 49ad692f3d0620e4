import Foundation
import MomentaryCore

/// Two control routes for tests that run in another process (the browser tests drive the service
/// through `momentary-test-push`): `POST /subscriptions` (optional JSON body
/// `{"application_server_key": "…"}`) answers a new subscription as
/// `{"id", "endpoint", "keys": {"p256dh", "auth"}}`, and `GET /subscriptions/<id>/messages`
/// answers the decrypted payloads accepted for it, oldest first, as `[{"payload": "…"}]`.
extension LocalWebPushService {
    static func controlResponse(to request: Request, state: LocalWebPushState, origin: String) async -> CannedWebPushResponse? {
        let path = request.path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.path
        let parts = path.split(separator: "/").map(String.init)
        guard parts.first == "subscriptions" else { return nil }
        switch (request.method, parts.count) {
        case ("POST", 1):
            let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            let subscription = await addSubscription(
                applicationServerKey: body?["application_server_key"] as? String, origin: origin, state: state)
            return json(201, [
                "id": subscription.id, "endpoint": subscription.endpoint.absoluteString,
                "keys": ["p256dh": subscription.p256dh, "auth": subscription.auth],
            ])
        case ("GET", 3) where parts[2] == "messages":
            let messages = await state.received.filter { $0.subscriptionID == parts[1] }
            return json(200, messages.map { ["payload": String(decoding: $0.payload, as: UTF8.self)] })
        default:
            return json(404, ["error": "no control route \(request.method) \(path)"])
        }
    }

    /// A new subscription with fresh receiver keys, as a browser's `pushManager.subscribe()` makes one.
    static func addSubscription(applicationServerKey: String?, origin: String, state: LocalWebPushState) async -> WebPushTestSubscription {
        let keys = WebPushReceiverKeys.generate()
        let id = UUID().uuidString.lowercased()
        // Origin and id are plain ASCII, so the URL always parses.
        let subscription = WebPushTestSubscription(
            id: id, endpoint: URL(string: "\(origin)/push/\(id)")!,
            p256dh: Base64URL.encode(keys.publicKey), auth: Base64URL.encode(keys.authSecret))
        await state.add(.init(
            subscription: subscription, keys: keys, applicationServerKey: applicationServerKey, cannedResponse: nil))
        return subscription
    }

    private static func json(_ status: Int, _ value: Any) -> CannedWebPushResponse {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("{}".utf8)
        return CannedWebPushResponse(status: status, headers: ["Content-Type": "application/json"], body: String(decoding: data, as: UTF8.self))
    }
}
