import Foundation
import MomentaryServer
import MomentaryTestServers
import Testing

/// The HTTP/2 connection under the APNs channel: the server's stream limit, a server that goes
/// away, and a channel that has been shut down.
@Suite("APNs connection over HTTP/2")
struct APNsConnectionTests {
    @Test("no more notifications are in flight than the server's SETTINGS_MAX_CONCURRENT_STREAMS allows, and all it allows are used")
    func streamLimitHonoured() async throws {
        // The others wait for the held one's stream to be released, not for its deadline (the
        // rejection of an unanswered notification has its own test below).
        try await APNsHarness.run(maxConcurrentStreams: 2) { harness in
            // One stream stays unanswered: the others must all pass through the second stream the
            // server allows, never a third. Once they have, the held one is answered too.
            await harness.server.holdNextRequest()
            let token = APNsHarness.deviceToken()
            let outcomes = await withTaskGroup(of: PushOutcome?.self, returning: [PushOutcome].self) { group in
                for _ in 0..<24 {
                    group.addTask { await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false)) }
                }
                group.addTask {
                    // Released even when the wait fails (it records the issue), so the test ends.
                    try? await eventually(within: APNsHarness.unreachedDeadline, "the 23 others are answered") { await harness.server.requestCount() == 23 }
                    await harness.server.releaseHeldRequests()
                    return nil
                }
                return await group.reduce(into: []) { if let outcome = $1 { $0.append(outcome) } }
            }
            #expect(outcomes.count == 24)
            let refused = outcomes.filter { $0.label != "accepted" }
            #expect(refused.isEmpty, "\(refused)")
            #expect(await harness.server.requestCount() == 24)
            #expect(await harness.server.peakConcurrentStreams() == 2)
            #expect(await harness.server.connectionCount() == 1)
        }
    }

    @Test("after the server's GOAWAY the channel opens a new connection and keeps delivering")
    func reconnectsAfterGoAway() async throws {
        try await APNsHarness.run { harness in
            await harness.server.goAway(afterRequestsPerConnection: 2)
            let token = APNsHarness.deviceToken()
            for _ in 0..<5 {
                let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
                #expect(outcome.label == "accepted", "\(outcome)")
            }
            let requests = await harness.server.receivedRequests()
            #expect(requests.map(\.connectionID) == [1, 1, 2, 2, 3])
            #expect(await harness.server.connectionCount() == 3)
            // The provider token outlives the connections.
            #expect(await harness.channel.tokens.signedCount == 1)
        }
    }

    @Test("after a GOAWAY amid concurrent notifications, those the server did not process are sent again on a new connection, and none twice")
    func goAwayResendsOnlyUnprocessed() async throws {
        try await APNsHarness.run { harness in
            // The 4th request on each connection brings a GOAWAY naming the last stream being
            // processed; the streams above it are dropped unprocessed by both sides.
            await harness.server.goAway(afterRequestsPerConnection: 4)
            let token = APNsHarness.deviceToken()
            let messages = (0..<30).map { _ in APNsHarness.message() }
            let outcomes = await withTaskGroup(of: PushOutcome.self, returning: [PushOutcome].self) { group in
                for message in messages {
                    group.addTask { await harness.channel.send(message, to: .apns(deviceToken: token, sandbox: false)) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0.label == "accepted" }, "\(outcomes.filter { $0.label != "accepted" })")

            let requests = await harness.server.receivedRequests()
            let delivered = requests.compactMap { $0.headers["apns-id"] }
            #expect(delivered.count == 30, "each notification reached the server exactly once")
            #expect(Set(delivered) == Set(messages.map { $0.id.uuidString.lowercased() }))
            #expect(await harness.server.connectionCount() >= 2)
        }
    }

    @Test("error answers adding up to more than the connection's flow-control window keep coming")
    func errorBodiesReturnTheWindow() async throws {
        // A window never handed back still fails: those notifications wait out the deadline.
        try await APNsHarness.run { harness in
            // Each 410 carries a JSON body of about 50 bytes; 1,400 of them exceed the 64 KB
            // window a connection starts with, so the window must be handed back as they arrive.
            let token = APNsHarness.deviceToken()
            await harness.server.reply(.unregistered, toAllFor: token)
            let outcomes = await withTaskGroup(of: PushOutcome.self, returning: [PushOutcome].self) { group in
                for _ in 0..<1_400 {
                    group.addTask { await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false)) }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count == 1_400)
            let others = outcomes.filter { $0 != .unregistered(statusCode: 410, reason: "Unregistered") }
            #expect(others.isEmpty, "\(others.count) of the answers were not 410 Unregistered, such as \(others.prefix(3))")
            #expect(await harness.server.connectionCount() == 1)
        }
    }

    @Test("a connection lost before the answer gives a retryable rejection; the next send reconnects")
    func droppedConnection() async throws {
        try await APNsHarness.run { harness in
            let token = APNsHarness.deviceToken()
            #expect(await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false)).label == "accepted")
            await harness.server.dropConnectionAtNextRequest()

            let lost = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
            guard case .rejected(nil, let reason, true) = lost else {
                Issue.record("expected a retryable rejection, got \(lost)")
                return
            }
            #expect(reason.contains("could not be reached"))

            let next = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
            #expect(next.label == "accepted", "\(next)")
            #expect(await harness.server.connectionCount() == 2)
            #expect(await harness.server.receivedRequests().map(\.connectionID) == [1, 2])
        }
    }

    @Test("a notification left unanswered past its deadline is a retryable rejection; the connection carries on")
    func unansweredRequestTimesOut() async throws {
        try await APNsHarness.run(requestTimeout: 2) { harness in
            let token = APNsHarness.deviceToken()
            // Connected first, so the held request is the one sent next even when a busy machine
            // takes longer than the deadline to set the connection up. Once one is accepted, any
            // sent before it on the same connection has reached the server too.
            var warmedUp = false
            for _ in 0..<10 where !warmedUp {
                warmedUp = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false)).label == "accepted"
            }
            #expect(warmedUp)
            let connections = await harness.server.connectionCount()
            await harness.server.holdNextRequest()
            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
            guard case .rejected(nil, let reason, true) = outcome else {
                Issue.record("expected a retryable rejection, got \(outcome)")
                return
            }
            #expect(reason.contains("no answer before the request's deadline"))

            let next = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false))
            #expect(next.label == "accepted", "\(next)")
            // Only the stream was given up, not the connection.
            #expect(await harness.server.connectionCount() == connections)
        }
    }

    @Test("after shutdown a send is refused at once, for later, and never reaches APNs")
    func refusedAfterShutdown() async throws {
        try await APNsHarness.run { harness in
            let token = APNsHarness.deviceToken()
            #expect(await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: false)).label == "accepted")
            await harness.channel.shutdown()

            let outcome = await harness.channel.send(APNsHarness.message(), to: .apns(deviceToken: token, sandbox: true))
            #expect(outcome == .rejected(statusCode: nil, reason: "The APNs channel has been shut down.", retryable: true))
            #expect(await harness.server.requestCount() == 1)
            // A second shutdown (the harness's) is harmless.
            await harness.channel.shutdown()
        }
    }
}
