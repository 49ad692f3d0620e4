import Foundation

extension LocalWebPushService {
    /// One HTTP request as the server loop hands it over.
    struct Request: Sendable {
        let method: String
        let path: String
        /// Lower-cased names; the last value wins for repeated headers.
        let headers: [String: String]
        let body: Data
    }

    /// Answers a request the way a push service does (RFC 8030 §5) and, for an accepted message,
    /// decrypts it as the subscribed browser would.
    static func respond(to request: Request, state: LocalWebPushState, verifier: VAPIDVerifier) async -> CannedWebPushResponse {
        if let control = await controlResponse(to: request, state: state, origin: verifier.origin) { return control }
        let parts = request.path.split(separator: "/")
        guard parts.count == 2, parts[0] == "push" else {
            return await refuse(nil, 404, "no push resource at \(request.path)", state)
        }
        let id = String(parts[1])
        guard let subscription = await state.entry(id) else {
            return await refuse(id, 404, "unknown subscription", state)
        }
        guard request.method == "POST" else { return await refuse(id, 405, "method \(request.method)", state) }
        if let canned = subscription.cannedResponse {
            await state.record(WebPushRefusal(subscriptionID: id, status: canned.status, reason: "canned response"))
            return canned
        }
        if let problem = headerProblem(request) { return await refuse(id, 400, problem, state) }
        guard request.body.count <= 4096 else {
            return await refuse(id, 413, "body of \(request.body.count) bytes exceeds 4096", state)
        }

        let vapid: VAPIDVerifier.Verified
        do {
            vapid = try await verifier.verify(authorization: request.headers["authorization"])
        } catch {
            return await refuse(id, 401, error.reason, state)
        }
        if let restriction = subscription.applicationServerKey, restriction != vapid.publicKey {
            return await refuse(id, 403, "the subscription is restricted to another VAPID key", state)
        }

        let payload: Data
        do {
            payload = try subscription.keys.decrypt(request.body)
        } catch {
            return await refuse(id, 400, "decryption failed: \(error.reason)", state)
        }
        await state.record(ReceivedWebPushMessage(
            subscriptionID: id, payload: payload, headers: request.headers, vapidToken: vapid.token,
            vapidPublicKey: vapid.publicKey, vapidAudience: vapid.claims.aud, vapidSubject: vapid.claims.sub ?? "",
            vapidExpiry: Date(timeIntervalSince1970: TimeInterval(vapid.claims.exp))))
        return CannedWebPushResponse(status: 201, headers: ["Location": "/message/\(UUID().uuidString.lowercased())"])
    }

    /// RFC 8030 requires TTL; RFC 8291 requires the aes128gcm coding; Urgency has four values.
    private static func headerProblem(_ request: Request) -> String? {
        guard request.headers["content-encoding"] == "aes128gcm" else {
            return "Content-Encoding is \(request.headers["content-encoding"] ?? "missing"), not aes128gcm"
        }
        guard let ttl = request.headers["ttl"], let seconds = Int(ttl), seconds >= 0 else {
            return "TTL is missing or not a non-negative integer"
        }
        if let urgency = request.headers["urgency"], !["very-low", "low", "normal", "high"].contains(urgency) {
            return "Urgency \(urgency) is not one of very-low, low, normal, high"
        }
        return nil
    }

    private static func refuse(
        _ id: String?, _ status: Int, _ reason: String, _ state: LocalWebPushState
    ) async -> CannedWebPushResponse {
        await state.record(WebPushRefusal(subscriptionID: id, status: status, reason: reason))
        return CannedWebPushResponse(status: status, body: reason)
    }
}
