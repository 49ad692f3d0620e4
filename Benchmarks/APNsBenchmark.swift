import Foundation
import MomentaryCore
import MomentaryServer
import MomentaryTestServers
import NIOSSL

/// Pushes per second through one `APNsChannel` (one HTTP/2 connection, one provider token).
///
/// By default the target is the local APNs server, which checks every request as APNs does on the
/// same cores, so the figure is a floor for what the client alone can do. `--url` (and `--ca` for
/// its certificate authority) targets any HTTP/2 server that answers `POST /3/device/<token>`,
/// e.g. `nghttpd` serving a file there. `--baseline` also runs, in the same process and against
/// the same server, a plain AsyncHTTPClient loop posting the same requests, and `h2load` when it
/// is on PATH, and prints the channel's ratio to each.
enum APNsBenchmark {
    struct Options {
        var pushes = 20_000
        var concurrency = 64
        var url: URL?
        var certificateAuthorityFile: String?
        var baseline = false
    }

    static let deviceToken = String(repeating: "ab", count: 32)

    static func run(_ options: Options) async throws {
        let key = APNsTestKey()
        let topic = "org.momentary.benchmark"
        let directory = try ScratchFolder.make("apns-bench")
        defer { try? FileManager.default.removeItem(at: directory) }

        var server: LocalAPNsServer?
        var environment = [
            "APNS_KEY_FILE": directory.appendingPathComponent("AuthKey_\(key.keyID).p8").path,
            "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID, "APNS_TOPIC": topic,
        ]
        try key.writeP8(to: environment["APNS_KEY_FILE"]!)
        if let url = options.url {
            environment["APNS_URL"] = url.absoluteString
            environment["APNS_CA_FILE"] = options.certificateAuthorityFile
        } else {
            let local = try await LocalAPNsServer.start(expecting: LocalAPNsExpectations(key: key, topic: topic), keepsRequests: false)
            let caPath = directory.appendingPathComponent("ca.pem").path
            try local.writeCertificateAuthority(to: caPath)
            environment["APNS_URL"] = local.url.absoluteString
            environment["APNS_CA_FILE"] = caPath
            server = local
        }
        guard let configuration = try APNsConfiguration.load(environment: environment),
              let serverURL = configuration.serverURL
        else { fatalError("the APNs configuration was not loaded") }
        var base = serverURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let url = URL(string: base)!

        let channel = APNsChannel(configuration: configuration)
        let target = PushTarget.apns(deviceToken: deviceToken, sandbox: false)
        // Open the connection and sign the token outside the timed part.
        let first = await channel.send(message(), to: target)
        guard first.label == "accepted" else { fatalError("the server did not accept a push: \(first)") }
        let pushed = await measure(options) { await channel.send(message(), to: target).label == "accepted" }
        let jwt = try await channel.tokens.token().jwt
        await channel.shutdown()

        var fields: [(String, String)] = [
            ("benchmark", "\"apns-push\""), ("target", "\"\(options.url == nil ? "local-apns-server" : url.absoluteString)\""),
            ("pushes", "\(options.pushes)"), ("concurrency", "\(options.concurrency)"),
            ("accepted", "\(pushed.accepted)"), ("seconds", String(format: "%.3f", pushed.seconds)),
            ("per_second", "\(Int(pushed.perSecond.rounded()))"),
        ]
        if options.baseline {
            let baseline = APNsBaselineClient(
                url: url, trusting: configuration.extraTrustedCertificates, deviceToken: deviceToken, topic: topic, jwt: jwt)
            _ = await baseline.send(APNsBenchmarkNotification())
            let posted = await measure(options) { await baseline.send(APNsBenchmarkNotification()) }
            try await baseline.shutdown()
            fields += [
                ("async_http_client_accepted", "\(posted.accepted)"),
                ("async_http_client_per_second", "\(Int(posted.perSecond.rounded()))"),
                ("ratio_to_async_http_client", String(format: "%.2f", pushed.perSecond / posted.perSecond)),
            ]
            let notification = APNsBenchmarkNotification()
            let h2load = H2Load.perSecond(
                url: "\(url.absoluteString)/3/device/\(deviceToken)",
                headers: [("authorization", "bearer \(jwt)"), ("apns-topic", topic), ("apns-push-type", "alert"),
                          ("apns-priority", "10"), ("apns-expiration", notification.expiration), ("apns-id", notification.id)],
                body: notification.body, requests: options.pushes, streams: options.concurrency
            )
            if let h2load {
                fields += [("h2load_per_second", "\(Int(h2load.rounded()))"),
                           ("ratio_to_h2load", String(format: "%.3f", pushed.perSecond / h2load))]
            } else {
                fields.append(("h2load_per_second", "null"))
            }
        }
        if let server {
            fields.append(("connections", "\(await server.connectionCount())"))
            try await server.stop()
        }
        printResult(fields)
    }

    /// The channel never sends the participant, so one serves every push.
    private static let participantID = UUID()

    /// One new UUID per push (the beep's), as the baseline's notification makes: on Linux each
    /// `UUID()` opens /dev/urandom, which a second one per push made show in the profile.
    private static func message() -> PushMessage {
        PushMessage(
            id: UUID(), participantID: participantID, alert: APNsBenchmarkNotification.alert,
            sound: "default", badge: 1, expiresAt: Date().addingTimeInterval(3600)
        )
    }

    /// Runs `send` `pushes` times with `concurrency` in flight; counts those that returned true.
    private static func measure(
        _ options: Options, _ send: @escaping @Sendable () async -> Bool
    ) async -> (accepted: Int, seconds: Double, perSecond: Double) {
        let start = ContinuousClock.now
        let accepted = await withTaskGroup(of: Bool.self, returning: Int.self) { group in
            var started = 0
            var accepted = 0
            while started < min(options.concurrency, options.pushes) {
                group.addTask(operation: send)
                started += 1
            }
            while let ok = await group.next() {
                if ok { accepted += 1 }
                if started < options.pushes {
                    group.addTask(operation: send)
                    started += 1
                }
            }
            return accepted
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (accepted, seconds, Double(options.pushes) / seconds)
    }
}
