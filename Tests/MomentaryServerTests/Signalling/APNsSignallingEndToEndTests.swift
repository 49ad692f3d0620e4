import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import MomentaryTestServers
import Testing

/// The whole path of a beep on the running server: a participant registers through the API with an
/// APNs device token, the planner schedules their beeps, the signaller's loop wakes when one falls
/// due and sends it over HTTP/2 to the local APNs server, which checks the JWT and headers.
@Suite("Signalling: end to end through APNs")
struct APNsSignallingEndToEndTests {
    @Test("planned beeps reach APNs with a verifiable JWT; ExpiredProviderToken is refreshed once; 410 deactivates")
    func registeredParticipantIsBeeped() async throws {
        try await withRunningServer { server in
            let app = server.app
            try await APIFixture.seedDemo(on: app.db)
            try await APNsHarness.run { harness in
                let clock = ManualTimeSource(now: Date())
                app.signalling.install(channels: PushChannelRegistry([harness.channel]), timeSource: clock)
                await app.signalling.start()

                let token = APNsHarness.deviceToken()
                var registration = APIFixture.registration()
                registration.push = .apns(token: token, environment: .production)
                let (_, registered) = try await APIFixture.register(on: server, registration)
                let participantID = registered.participantID

                // Registration planned the rest of today and tomorrow.
                let planned = try await Beep.query(on: app.db)
                    .filter(\.$participant.$id == participantID).filter(\.$status == .pending).sort(\.$scheduledAt).all()
                #expect(planned.count >= 2, "tomorrow's two beeps at least")
                let first = try #require(planned.first)
                let firstID = try first.requireID()

                // The loop sleeps until the first beep is due, then sends it.
                clock.set(first.scheduledAt)
                try await eventually("the first beep reached APNs") { await harness.server.requestCount() == 1 }
                try await eventually("the first beep is recorded sent") {
                    try await Beep.find(firstID, on: app.db)?.status == .sent
                }
                let request = try #require(await harness.server.receivedRequests().first)
                #expect(request.reply == .success)
                #expect(request.path == "/3/device/\(token)")
                #expect(request.headers["apns-id"] == firstID.uuidString.lowercased())
                #expect(request.headers["apns-collapse-id"] == firstID.uuidString.lowercased(), "a reminder replaces the notification")
                #expect(request.headers["apns-topic"] == APNsHarness.topic)
                #expect(request.headers["apns-push-type"] == "alert")
                #expect(request.headers["apns-priority"] == "10")
                #expect(request.headers["apns-expiration"].flatMap(Int.init).map { $0 > Int(first.scheduledAt.timeIntervalSince1970) } == true,
                        "expires at the end of the participant's hours")
                let demo = try #require(try await Study.query(on: app.db).filter(\.$slug == "demo").first())
                let payload = try #require(request.payload)
                #expect(payload.alert == demo.alertText)
                #expect(payload.badge == 1)
                #expect(payload.beepID == firstID.uuidString.lowercased())
                let claims = try LocalAPNsJWT.verify(try #require(request.jwt), with: harness.key.publicKey)
                #expect(claims.keyID == harness.key.keyID)
                #expect(claims.issuer == harness.key.teamID)

                // APNs calls the provider token stale: one refresh, one retry, delivered.
                await harness.server.refuseProviderTokensSeenSoFar()
                let dispatcher = try #require(app.signalling.dispatcher)
                let refreshed = try await dispatcher.sendTestBeep(to: participantID)
                #expect(refreshed.accepted, "\(refreshed.line)")
                let forTestBeep = await harness.server.receivedRequests().filter { $0.headers["apns-id"] == refreshed.beepID.uuidString.lowercased() }
                #expect(forTestBeep.map(\.reply) == [.expiredProviderToken, .success])
                #expect(forTestBeep.count == 2 && forTestBeep[0].jwt != forTestBeep[1].jwt, "the retry carries a new token")

                // The token is unregistered: the participant becomes inactive, pending beeps are cancelled.
                let pendingBefore = try await Beep.query(on: app.db)
                    .filter(\.$participant.$id == participantID).filter(\.$status == .pending).count()
                #expect(pendingBefore >= 1)
                await harness.server.reply(.unregistered, toAllFor: token)
                let gone = try await dispatcher.sendTestBeep(to: participantID)
                #expect(!gone.accepted)
                #expect(gone.outcome == "unregistered")
                let participant = try #require(try await Participant.find(participantID, on: app.db))
                #expect(!participant.active)
                #expect(participant.pushHealth == "unregistered")
                #expect(try await Beep.query(on: app.db)
                    .filter(\.$participant.$id == participantID).filter(\.$status == .pending).count() == 0)

                await app.signalling.shutdown()
            }
        }
    }
}
