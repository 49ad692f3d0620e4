import Foundation
import MomentaryServer
import MomentaryTestServers
import Testing

@Suite("APNs delivery over HTTP/2")
struct APNsDeliveryTests {
    @Test("a beep arrives as one POST with the APNs headers, the payload and a verifiable JWT")
    func beepArrives() async throws {
        try await APNsHarness.run { harness in
            let token = APNsHarness.deviceToken()
            let message = APNsHarness.message()
            let outcome = await harness.channel.send(message, to: .apns(deviceToken: token, sandbox: false))

            let beepID = message.id.uuidString.lowercased()
            #expect(outcome == .accepted(statusCode: 200, serviceID: beepID))

            let requests = await harness.server.receivedRequests()
            try #require(requests.count == 1)
            let request = requests[0]
            #expect(request.reply == .success)
            #expect(request.method == "POST")
            #expect(request.path == "/3/device/\(token)")
            #expect(request.headers["apns-topic"] == APNsHarness.topic)
            #expect(request.headers["apns-push-type"] == "alert")
            #expect(request.headers["apns-priority"] == "10")
            #expect(request.headers["apns-expiration"] == "1900000000")
            #expect(request.headers["apns-id"] == beepID)
            #expect(request.headers["authorization"]?.hasPrefix("bearer ") == true)

            let payload = try #require(request.payload)
            #expect(payload.alert == message.alert)
            #expect(payload.sound == "chime.caf")
            #expect(payload.badge == 1)
            #expect(payload.beepID == beepID)

            let jwt = try #require(request.jwt)
            let claims = try LocalAPNsJWT.verify(jwt, with: harness.key.publicKey)
            #expect(claims.algorithm == "ES256")
            #expect(claims.keyID == harness.key.keyID)
            #expect(claims.issuer == harness.key.teamID)
            #expect(abs(claims.issuedAt - Int(Date().timeIntervalSince1970)) < 300)
            // The signature is bound to the key: another key's public half rejects it.
            #expect(throws: LocalAPNsJWT.Failure.badSignature) {
                try LocalAPNsJWT.verify(jwt, with: APNsTestKey().publicKey)
            }
        }
    }

    @Test("without a chosen sound or an expiry the default sound plays and APNs tries only once")
    func defaults() async throws {
        try await APNsHarness.run { harness in
            let message = APNsHarness.message(sound: nil, expiresAt: nil)
            let outcome = await harness.channel.send(message, to: .apns(deviceToken: APNsHarness.deviceToken(), sandbox: true))
            #expect(outcome.label == "accepted")
            let request = try #require(await harness.server.receivedRequests().first)
            #expect(request.payload?.sound == "default")
            #expect(request.headers["apns-expiration"] == "0")
        }
    }

    @Test("many sends share one provider token and one HTTP/2 connection")
    func reuse() async throws {
        try await APNsHarness.run { harness in
            let token = APNsHarness.deviceToken()
            let first = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
            #expect(first.label == "accepted")

            let outcomes = await withTaskGroup(of: PushOutcome.self, returning: [PushOutcome].self) { group in
                for _ in 0..<60 {
                    group.addTask {
                        await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0.label == "accepted" })

            let requests = await harness.server.receivedRequests()
            #expect(requests.count == 61)
            #expect(Set(requests.compactMap(\.jwt)).count == 1)
            #expect(await harness.channel.tokens.signedCount == 1)
            #expect(Set(requests.map(\.connectionID)).count == 1)
            #expect(await harness.server.connectionCount() == 1)
        }
    }

    @Test("a notification over 4 KB is refused before sending, for good")
    func oversizedPayload() async throws {
        try await APNsHarness.run { harness in
            let message = APNsHarness.message(alert: String(repeating: "x", count: 5000))
            let outcome = await harness.channel.send(message, to: .apns(deviceToken: APNsHarness.deviceToken(), sandbox: false))
            guard case .rejected(nil, let reason, false) = outcome else {
                Issue.record("expected a non-retryable rejection, got \(outcome)")
                return
            }
            #expect(reason.hasPrefix("PayloadTooLarge"))
            #expect(await harness.server.requestCount() == 0)
        }
    }

    @Test("a malformed device token or a non-APNs target never reaches APNs")
    func unusableTargets() async throws {
        try await APNsHarness.run { harness in
            let message = APNsHarness.message()
            let badToken = await harness.channel.send(message, to: .apns(deviceToken: "not-hex", sandbox: false))
            #expect(badToken == .unregistered(statusCode: nil, reason: "BadDeviceToken"))
            let webPush = await harness.channel.send(message, to: .webPush(endpoint: URL(string: "https://push.example")!, p256dh: "a", auth: "b"))
            #expect(webPush.label == "rejected")
            #expect(await harness.server.requestCount() == 0)
        }
    }

    @Test("a topic the server does not expect is refused by the server, not retried")
    func wrongTopic() async throws {
        try await APNsHarness.run(clientTopic: "org.example.other") { harness in
            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: APNsHarness.deviceToken(), sandbox: false))
            #expect(outcome == .rejected(statusCode: 400, reason: "TopicDisallowed", retryable: false))
        }
    }
}
