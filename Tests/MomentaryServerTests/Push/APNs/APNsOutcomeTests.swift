import Foundation
import MomentaryServer
import MomentaryTestServers
import Testing

@Suite("APNs answers and what the dispatcher is told")
struct APNsOutcomeTests {
    @Test("a dead device token is reported as unregistered, keeping APNs' reason",
          arguments: [LocalAPNsReply.unregistered, .badDeviceToken, .deviceTokenNotForTopic])
    func deadToken(reply: LocalAPNsReply) async throws {
        try await APNsHarness.run { harness in
            let token = APNsHarness.deviceToken()
            await harness.server.reply(reply, toAllFor: token)
            let reason = try #require(reply.reason)
            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
            #expect(outcome == .unregistered(statusCode: reply.status, reason: reason))
        }
    }

    @Test("other tokens are unaffected by one participant's 410")
    func unregisteredIsPerToken() async throws {
        try await APNsHarness.run { harness in
            let gone = APNsHarness.deviceToken()
            await harness.server.reply(.unregistered, toAllFor: gone)
            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: APNsHarness.deviceToken(), sandbox: false))
            #expect(outcome.label == "accepted")
        }
    }

    @Test("403 ExpiredProviderToken: one new token, one retry, delivered")
    func expiredTokenRefreshes() async throws {
        try await APNsHarness.run { harness in
            await harness.server.replyToNext(.expiredProviderToken)
            let message = APNsHarness.message()
            let outcome = await harness.channel.send(message, to: .apns(deviceToken: APNsHarness.deviceToken(), sandbox: false))
            #expect(outcome == .accepted(statusCode: 200, serviceID: message.id.uuidString.lowercased()))

            let requests = await harness.server.receivedRequests()
            #expect(requests.map(\.reply) == [.expiredProviderToken, .success])
            #expect(Set(requests.compactMap(\.jwt)).count == 2)
            #expect(await harness.channel.tokens.signedCount == 2)
        }
    }

    @Test("a refused token shared by concurrent sends is replaced once, not once per send")
    func concurrentRefusalsSignOnce() async throws {
        try await APNsHarness.run { harness in
            let token = APNsHarness.deviceToken()
            #expect(await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false)).label == "accepted")
            await harness.server.refuseProviderTokensSeenSoFar()

            let outcomes = await withTaskGroup(of: PushOutcome.self, returning: [PushOutcome].self) { group in
                for _ in 0..<8 {
                    group.addTask { await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false)) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0.label == "accepted" })
            #expect(await harness.channel.tokens.signedCount == 2)
        }
    }

    @Test("a provider token refused again after the refresh is rejected after exactly one retry",
          arguments: [LocalAPNsReply.expiredProviderToken, .invalidProviderToken])
    func persistentTokenRefusal(reply: LocalAPNsReply) async throws {
        try await APNsHarness.run { harness in
            let token = APNsHarness.deviceToken()
            await harness.server.reply(reply, toAllFor: token)
            let reason = try #require(reply.reason)
            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
            #expect(outcome == .rejected(statusCode: 403, reason: reason, retryable: false))
            #expect(await harness.server.requestCount() == 2)
            #expect(await harness.channel.tokens.signedCount == 2)
        }
    }

    @Test("a key the server does not know is refused as InvalidProviderToken")
    func unknownKey() async throws {
        try await APNsHarness.run(serverKey: APNsTestKey()) { harness in
            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: APNsHarness.deviceToken(), sandbox: false))
            #expect(outcome == .rejected(statusCode: 403, reason: "InvalidProviderToken", retryable: false))
            #expect(await harness.server.requestCount() == 2)
        }
    }

    @Test("throttling and server errors may be retried later",
          arguments: [LocalAPNsReply.tooManyRequests, .internalServerError, .serviceUnavailable,
                      LocalAPNsReply(status: 503, reason: "Shutdown")])
    func retryable(reply: LocalAPNsReply) async throws {
        try await APNsHarness.run { harness in
            let token = APNsHarness.deviceToken()
            await harness.server.reply(reply, toAllFor: token)
            let reason = try #require(reply.reason)
            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
            #expect(outcome == .rejected(statusCode: reply.status, reason: reason, retryable: true))
            #expect(await harness.server.requestCount() == 1)
        }
    }

    @Test("errors in the request itself are not retried",
          arguments: [LocalAPNsReply.payloadTooLarge, .badTopic, LocalAPNsReply(status: 400, reason: "BadExpirationDate")])
    func notRetryable(reply: LocalAPNsReply) async throws {
        try await APNsHarness.run { harness in
            let token = APNsHarness.deviceToken()
            await harness.server.reply(reply, toAllFor: token)
            let reason = try #require(reply.reason)
            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
            #expect(outcome == .rejected(statusCode: reply.status, reason: reason, retryable: false))
        }
    }

    @Test("an APNs host that cannot be reached gives a retryable rejection")
    func serverDown() async throws {
        try await APNsHarness.run { harness in
            try await harness.server.stop()
            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: APNsHarness.deviceToken(), sandbox: false))
            guard case .rejected(nil, let reason, true) = outcome else {
                Issue.record("expected a retryable rejection, got \(outcome)")
                return
            }
            #expect(reason.contains("could not be reached"))
        }
    }
}
