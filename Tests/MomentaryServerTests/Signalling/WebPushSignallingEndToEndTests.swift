import AsyncHTTPClient
import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import MomentaryTestServers
import NIOSSL
import Testing

/// A browser participant: registered through the API with a Web Push subscription of the local
/// push service (over https, as real services are), beeped by the running server's signaller
/// through VAPID and aes128gcm, and deactivated when the service answers 410 Gone.
@Suite("Signalling: end to end through Web Push")
struct WebPushSignallingEndToEndTests {
    @Test("a planned beep reaches the push service encrypted for the subscription; 410 deactivates the participant")
    func browserParticipantIsBeeped() async throws {
        try await withRunningServer { server in
            let app = server.app
            try await APIFixture.seedDemo(on: app.db)
            let certificates = try LocalAPNsCertificates.generate()
            let service = try await LocalWebPushService.start(tls: certificates)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates([try NIOSSLCertificate(bytes: Array(certificates.certificateAuthorityPEM.utf8), format: .pem)])]
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(
                tlsConfiguration: tls, timeout: .init(connect: .seconds(5), read: .seconds(30))))
            do {
                let keyPair = VAPID.KeyPair.generate()
                let channel = try WebPushChannel(
                    configuration: try WebPushConfiguration(keyPair: keyPair, subject: "mailto:research@example.org"), httpClient: client)
                let clock = ManualTimeSource(now: Date())
                app.signalling.install(channels: PushChannelRegistry([channel]), timeSource: clock)
                await app.signalling.start()

                let subscription = await service.makeSubscription(applicationServerKey: keyPair.publicKeyBase64URL)
                #expect(subscription.endpoint.scheme == "https")
                var registration = APIFixture.registration()
                registration.push = .webPush(WebPushSubscription(
                    endpoint: subscription.endpoint.absoluteString, keys: .init(p256dh: subscription.p256dh, auth: subscription.auth)))
                let (_, registered) = try await APIFixture.register(on: server, registration)
                let participantID = registered.participantID

                let first = try #require(try await Beep.query(on: app.db)
                    .filter(\.$participant.$id == participantID).filter(\.$status == .pending).sort(\.$scheduledAt).first())
                let firstID = try first.requireID()
                clock.set(first.scheduledAt)
                try await eventually("the beep reached the push service") {
                    await !service.receivedMessages(for: subscription.id).isEmpty
                }
                try await eventually("the beep is recorded sent") { try await Beep.find(firstID, on: app.db)?.status == .sent }
                let received = try #require(await service.receivedMessages(for: subscription.id).first)
                let payload = try #require(try JSONSerialization.jsonObject(with: received.payload) as? [String: Any])
                #expect(payload["beep_id"] as? String == firstID.uuidString.lowercased())
                let demo = try #require(try await Study.query(on: app.db).filter(\.$slug == "demo").first())
                #expect(payload["alert"] as? String == demo.alertText)
                #expect(received.vapidAudience == service.origin)

                await service.respond(to: subscription.id, with: CannedWebPushResponse(status: 410))
                let dispatcher = try #require(app.signalling.dispatcher)
                let gone = try await dispatcher.sendTestBeep(to: participantID)
                #expect(gone.outcome == "unregistered", "\(gone.line)")
                let participant = try #require(try await Participant.find(participantID, on: app.db))
                #expect(!participant.active)
                #expect(try await Beep.query(on: app.db)
                    .filter(\.$participant.$id == participantID).filter(\.$status == .pending).count() == 0)
                await app.signalling.shutdown()
            } catch {
                await app.signalling.shutdown()
                try? await client.shutdown()
                await service.stop()
                throw error
            }
            try await client.shutdown()
            await service.stop()
        }
    }
}
