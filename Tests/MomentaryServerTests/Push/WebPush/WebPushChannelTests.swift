import AsyncHTTPClient
import Foundation
import MomentaryCore
import MomentaryTestServers
import Testing

@testable import MomentaryServer

/// The channel against `LocalWebPushService`, which checks VAPID and decrypts like a browser.
@Suite("Web Push channel end to end")
struct WebPushChannelTests {
    private static let subject = "mailto:research@example.org"

    private func message(expiresIn seconds: TimeInterval? = nil, now: Date = Date()) -> PushMessage {
        PushMessage(
            id: UUID(), participantID: UUID(), alert: "How do you feel? Please tell us as soon as you safely can.",
            sound: "chime.caf", badge: 1, expiresAt: seconds.map { now.addingTimeInterval($0) })
    }

    /// Runs `body` with a fresh push service, HTTP client and channel, and tears them down.
    private func withChannel(
        keyPair: VAPID.KeyPair = .generate(), now: @escaping @Sendable () -> Date = { Date() },
        serviceNow: (@Sendable () -> Date)? = nil,
        _ body: (WebPushChannel, LocalWebPushService) async throws -> Void
    ) async throws {
        let service = try await LocalWebPushService.start(now: serviceNow ?? now)
        // Generous read limits: the suite runs many servers in parallel on two cores, and a slow
        // answer from the local service must not look like an unreachable push service.
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(timeout: .init(connect: .seconds(2), read: .seconds(30))))
        let authorizer = try VAPID.Authorizer(keyPair: keyPair, subject: Self.subject, now: now)
        let channel = WebPushChannel(httpClient: client, authorizer: authorizer, requestTimeout: .seconds(30), now: now)
        do {
            try await body(channel, service)
        } catch {
            try? await client.shutdown()
            await service.stop()
            throw error
        }
        try await client.shutdown()
        await service.stop()
    }

    private func target(_ subscription: WebPushTestSubscription) -> PushTarget {
        .webPush(endpoint: subscription.endpoint, p256dh: subscription.p256dh, auth: subscription.auth)
    }

    @Test("a beep arrives decrypted with its id, alert, sound, badge and deadline, under its Topic, and the service's message id comes back")
    func delivers() async throws {
        try await withChannel { channel, service in
            let subscription = await service.makeSubscription()
            let beep = message(expiresIn: 600)

            let outcome = await channel.send(beep, to: target(subscription))

            guard case .accepted(let status, let serviceID) = outcome else {
                Issue.record("expected acceptance, got \(outcome)")
                return
            }
            #expect(status == 201)
            #expect(serviceID?.hasPrefix("/message/") == true)
            let received = try #require(await service.receivedMessages(for: subscription.id).first)
            let json = try JSONDecoder().decode([String: JSONScalar].self, from: received.payload)
            #expect(json == [
                "beep_id": .string(beep.id.uuidString.lowercased()), "alert": .string(beep.alert),
                "sound": .string("chime.caf"), "badge": .int(1),
                "expires_at": .string(WireCoding.string(from: try #require(beep.expiresAt))),
            ])
            #expect(received.headers["topic"] == beep.id.uuidString.lowercased().replacingOccurrences(of: "-", with: ""),
                    "a reminder or a resend replaces the message a service still holds")
            #expect(received.headers["content-encoding"] == "aes128gcm")
            #expect(received.headers["content-type"] == "application/octet-stream")
            #expect(received.headers["urgency"] == "high")
            #expect(received.vapidAudience == service.origin)
            #expect(received.vapidSubject == Self.subject)
        }
    }

    @Test("TTL is the seconds left until the beep expires, an hour when it has no expiry; an expired beep is not sent")
    func timeToLive() async throws {
        let time = ManualTimeSource(now: Date())
        try await withChannel(now: time.now) { channel, service in
            let subscription = await service.makeSubscription()
            _ = await channel.send(message(expiresIn: 600, now: time.now()), to: target(subscription))
            _ = await channel.send(message(), to: target(subscription))
            let late = await channel.send(message(expiresIn: -5, now: time.now()), to: target(subscription))

            let ttls = await service.receivedMessages(for: subscription.id).map { $0.headers["ttl"] }
            #expect(ttls == ["600", "3600"])
            #expect(late.label == "rejected")
            if case .rejected(_, let reason, let retryable) = late {
                #expect(!retryable)
                #expect(reason.contains("expired"))
            }
        }
    }

    @Test("the VAPID token is reused across sends and replaced once its lifetime is nearly over")
    func tokenReuse() async throws {
        let time = ManualTimeSource(now: Date())
        try await withChannel(now: time.now) { channel, service in
            let subscription = await service.makeSubscription()
            for _ in 0..<3 { _ = await channel.send(message(), to: target(subscription)) }
            time.advance(by: VAPID.defaultTokenLifetime - VAPID.renewalMargin + 1)
            _ = await channel.send(message(), to: target(subscription))

            let tokens = await service.receivedMessages(for: subscription.id).map(\.vapidToken)
            #expect(tokens.count == 4)
            #expect(Set(tokens.prefix(3)).count == 1)
            #expect(tokens[3] != tokens[0])
        }
    }

    @Test(
        "404 and 410 from the push service mean the subscription is gone",
        arguments: [404, 410])
    func unregistered(status: Int) async throws {
        try await withChannel { channel, service in
            let subscription = await service.makeSubscription()
            await service.respond(to: subscription.id, with: CannedWebPushResponse(status: status))

            let outcome = await channel.send(message(), to: target(subscription))

            #expect(outcome.label == "unregistered")
            if case .unregistered(let code, _) = outcome { #expect(code == status) }
        }
    }

    @Test("an endpoint the push service never issued (404) is treated as unregistered")
    func unknownEndpoint() async throws {
        try await withChannel { channel, service in
            let subscription = await service.makeSubscription()
            let unknown = PushTarget.webPush(
                endpoint: URL(string: "\(service.origin)/push/no-such-subscription")!,
                p256dh: subscription.p256dh, auth: subscription.auth)

            let outcome = await channel.send(message(), to: unknown)

            #expect(outcome.label == "unregistered")
            #expect(outcome.statusCodeValue == 404)
            #expect(outcome.reasonText.hasPrefix("The push service does not know this subscription (404)"), "\(outcome)")
        }
    }

    @Test("429 is a retryable rejection whose reason carries Retry-After")
    func rateLimited() async throws {
        try await withChannel { channel, service in
            let subscription = await service.makeSubscription()
            await service.respond(
                to: subscription.id, with: CannedWebPushResponse(status: 429, headers: ["Retry-After": "120"]))

            let outcome = await channel.send(message(), to: target(subscription))

            guard case .rejected(let code, let reason, let retryable) = outcome else {
                Issue.record("expected a rejection, got \(outcome)")
                return
            }
            #expect(code == 429)
            #expect(retryable)
            #expect(reason.contains("retry after 120 s"))
        }
    }

    @Test(
        "5xx is retryable; 400, 403 and 413 are not",
        arguments: [(500, true), (503, true), (400, false), (403, false), (413, false)])
    func otherStatuses(status: Int, retryable expected: Bool) async throws {
        try await withChannel { channel, service in
            let subscription = await service.makeSubscription()
            await service.respond(
                to: subscription.id, with: CannedWebPushResponse(status: status, body: "{\"reason\":\"test\"}"))

            let outcome = await channel.send(message(), to: target(subscription))

            guard case .rejected(let code, let reason, let retryable) = outcome else {
                Issue.record("expected a rejection, got \(outcome)")
                return
            }
            #expect(code == status)
            #expect(retryable == expected)
            #expect(reason.contains("\"reason\":\"test\""))
        }
    }

    @Test("a subscription restricted to another VAPID key is refused with 403, not retried")
    func restrictedSubscription() async throws {
        let keyPair = VAPID.KeyPair.generate()
        try await withChannel(keyPair: keyPair) { channel, service in
            let ours = await service.makeSubscription(applicationServerKey: keyPair.publicKeyBase64URL)
            let theirs = await service.makeSubscription(applicationServerKey: VAPID.KeyPair.generate().publicKeyBase64URL)

            #expect(await channel.send(message(), to: target(ours)).label == "accepted")
            let refused = await channel.send(message(), to: target(theirs))

            #expect(refused == .rejected(statusCode: 403, reason: refused.reasonText, retryable: false))
            #expect(refused.reasonText.hasPrefix("The push service refused our VAPID authorization (403)"), "\(refused)")
        }
    }

    @Test("the local service refuses (401) a VAPID token that has expired by its clock or names another origin")
    func localServiceChecksVAPID() async throws {
        let later = ManualTimeSource(now: Date().addingTimeInterval(2 * 86_400))
        try await withChannel(serviceNow: later.now) { channel, service in
            let subscription = await service.makeSubscription()
            let expired = await channel.send(message(), to: target(subscription))
            #expect(expired == .rejected(statusCode: 401, reason: expired.reasonText, retryable: false))
            #expect(expired.reasonText.hasPrefix("The push service refused our VAPID authorization (401)"), "\(expired)")
        }
        try await withChannel { channel, service in
            let subscription = await service.makeSubscription()
            let otherOrigin = try #require(URL(string: "http://localhost:\(service.port)/push/\(subscription.id)"))
            let misaddressed = await channel.send(
                message(), to: .webPush(endpoint: otherOrigin, p256dh: subscription.p256dh, auth: subscription.auth))
            #expect(misaddressed.label == "rejected")
            let reasons = await service.refusals().map(\.reason)
            #expect(reasons.contains { $0.contains("aud is http://localhost:\(service.port)") })
        }
    }

    @Test("a push service that is down gives a retryable rejection")
    func serviceDown() async throws {
        try await withChannel { channel, service in
            let subscription = await service.makeSubscription()
            await service.stop()

            let outcome = await channel.send(message(), to: target(subscription))

            guard case .rejected(let code, _, let retryable) = outcome else {
                Issue.record("expected a rejection, got \(outcome)")
                return
            }
            #expect(code == nil)
            #expect(retryable)
        }
    }

    @Test("bad subscription keys and non-Web-Push targets are refused without a request")
    func refusedLocally() async throws {
        try await withChannel { channel, service in
            let subscription = await service.makeSubscription()
            let badKeys = PushTarget.webPush(endpoint: subscription.endpoint, p256dh: "short", auth: subscription.auth)

            let outcomes = [
                await channel.send(message(), to: badKeys),
                await channel.send(message(), to: .apns(deviceToken: "abcd", sandbox: true)),
            ]

            for outcome in outcomes {
                #expect(outcome.label == "rejected")
                #expect(outcome.statusCodeValue == nil)
                if case .rejected(_, _, let retryable) = outcome { #expect(!retryable) }
            }
            #expect(outcomes[0].reasonText.contains("p256dh"), "\(outcomes[0])")
            #expect(outcomes[1].reasonText == "The webpush channel cannot deliver to an APNs device token.")
            #expect(await service.receivedMessages().isEmpty)
            #expect(await service.refusals().isEmpty)
        }
    }
}

/// A JSON scalar, to compare a decoded payload as a whole.
private enum JSONScalar: Decodable, Equatable {
    case string(String), int(Int)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) { self = .int(number) } else { self = .string(try container.decode(String.self)) }
    }
}

extension PushOutcome {
    /// The reason of a rejection or unregistration ("" for acceptance), for whole-value comparisons.
    fileprivate var reasonText: String {
        switch self {
        case .accepted: ""
        case .rejected(_, let reason, _), .unregistered(_, let reason): reason
        }
    }

    fileprivate var statusCodeValue: Int? {
        switch self {
        case .accepted(let code, _), .rejected(let code, _, _), .unregistered(let code, _): code
        }
    }
}
