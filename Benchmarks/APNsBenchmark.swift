import Foundation
import MomentaryServer
import MomentaryTestServers

/// Pushes per second through one `APNsChannel` (one HTTP/2 connection, one provider token) to the
/// local APNs server, which checks every request as APNs does. Client and server share the
/// machine, so the figure is a floor for what the client alone can do.
enum APNsBenchmark {
    /// Notifications in flight at once: well under the server's 100 concurrent streams.
    static let concurrency = 64

    static func run(pushes: Int) async throws {
        let key = APNsTestKey()
        let topic = "org.momentary.benchmark"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apns-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let server = try await LocalAPNsServer.start(
            expecting: LocalAPNsExpectations(key: key, topic: topic), keepsRequests: false
        )
        let keyPath = directory.appendingPathComponent("AuthKey_\(key.keyID).p8").path
        let caPath = directory.appendingPathComponent("ca.pem").path
        try key.writeP8(to: keyPath)
        try server.writeCertificateAuthority(to: caPath)
        guard let configuration = try APNsConfiguration.load(environment: [
            "APNS_KEY_FILE": keyPath, "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID,
            "APNS_TOPIC": topic, "APNS_URL": server.url.absoluteString, "APNS_CA_FILE": caPath,
        ]) else { fatalError("the APNs configuration was not loaded") }
        let channel = APNsChannel(configuration: configuration)

        let deviceToken = String(repeating: "ab", count: 32)
        let target = PushTarget.apns(deviceToken: deviceToken, sandbox: false)
        func message() -> PushMessage {
            PushMessage(
                beepID: UUID(), participantID: UUID(),
                alert: "How do you feel? Please tell us as soon as you safely can.",
                sound: "default", badge: 1, expiresAt: Date().addingTimeInterval(3600)
            )
        }

        // Open the connection and sign the token outside the timed part.
        _ = await channel.send(message(), to: target)

        let start = ContinuousClock.now
        let accepted = await withTaskGroup(of: Bool.self, returning: Int.self) { group in
            var started = 0
            var accepted = 0
            while started < min(concurrency, pushes) {
                group.addTask { await channel.send(message(), to: target).label == "accepted" }
                started += 1
            }
            while let ok = await group.next() {
                if ok { accepted += 1 }
                if started < pushes {
                    group.addTask { await channel.send(message(), to: target).label == "accepted" }
                    started += 1
                }
            }
            return accepted
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let connections = await server.connectionCount()

        try await channel.shutdown()
        try await server.stop()

        let perSecond = Double(pushes) / seconds
        print(#"{"benchmark":"apns-push","pushes":\#(pushes),"accepted":\#(accepted),"concurrency":\#(concurrency),"#
            + #""seconds":\#(String(format: "%.3f", seconds)),"per_second":\#(Int(perSecond.rounded())),"connections":\#(connections)}"#)
    }
}
