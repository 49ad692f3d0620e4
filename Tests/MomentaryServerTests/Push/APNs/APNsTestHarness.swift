import Foundation
import MomentaryServer
import MomentaryTestServers
import Testing

/// A local APNs server, a provider key written as a `.p8` file, and an `APNsChannel` configured
/// through the real `APNS_*` variables to reach that server.
struct APNsHarness {
    static let topic = "org.momentary.tests"

    let key: APNsTestKey
    let server: LocalAPNsServer
    let channel: APNsChannel
    let directory: URL

    /// The deadline of every notification unless a test sets its own. Only tests of the deadline
    /// itself want one to pass; for the others it is long enough that no machine reaches it (in
    /// CI runs loading both cores, notifications to a local server waited out APNs' own 15 s
    /// default while the whole suite started, and tests failed on deadlines they do not test).
    static let unreachedDeadline: TimeInterval = 300

    /// Runs `body` with a fresh server and channel, and shuts both down afterwards.
    static func run(
        serverKey: APNsTestKey? = nil,
        clientTopic: String = topic,
        maxConcurrentStreams: Int? = nil,
        requestTimeout: TimeInterval = unreachedDeadline,
        now: @escaping @Sendable () -> Date = { Date() },
        _ body: (APNsHarness) async throws -> Void
    ) async throws {
        let key = APNsTestKey()
        let directory = try makeTemporaryDirectory()
        let server = try await LocalAPNsServer.start(
            expecting: LocalAPNsExpectations(key: serverKey ?? key, topic: topic), maxConcurrentStreams: maxConcurrentStreams)
        let channel: APNsChannel
        do {
            try server.writeCertificateAuthority(to: directory.appendingPathComponent("ca.pem").path)
            var variables = try writeKey(key, in: directory)
            variables["APNS_TOPIC"] = clientTopic
            variables["APNS_URL"] = server.url.absoluteString
            variables["APNS_CA_FILE"] = directory.appendingPathComponent("ca.pem").path
            var configuration = try #require(try APNsConfiguration.load(environment: variables))
            configuration.requestTimeout = requestTimeout
            channel = APNsChannel(configuration: configuration, now: now)
        } catch {
            try await server.stop()
            throw error
        }

        let harness = APNsHarness(key: key, server: server, channel: channel, directory: directory)
        do {
            try await body(harness)
        } catch {
            await harness.tearDown()
            throw error
        }
        await harness.tearDown()
    }

    private func tearDown() async {
        await channel.shutdown()
        try? await server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes `key` as a `.p8` file and returns the variables that name it.
    static func writeKey(_ key: APNsTestKey, in directory: URL) throws -> [String: String] {
        let path = directory.appendingPathComponent("AuthKey_\(key.keyID).p8").path
        try key.writeP8(to: path)
        return ["APNS_KEY_FILE": path, "APNS_KEY_ID": key.keyID, "APNS_TEAM_ID": key.teamID, "APNS_TOPIC": topic]
    }

    static func makeTemporaryDirectory() throws -> URL {
        let directory = try TestScratch.folder("apns-tests")
        return directory
    }

    /// A 32-byte device token in hex, as iOS issues them.
    static func deviceToken() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    static func message(
        alert: String = "How do you feel? Please tell us as soon as you safely can.",
        sound: String? = "chime.caf",
        expiresAt: Date? = Date(timeIntervalSince1970: 1_900_000_000)
    ) -> PushMessage {
        PushMessage(id: UUID(), participantID: UUID(), alert: alert, sound: sound, badge: 1, expiresAt: expiresAt)
    }
}
