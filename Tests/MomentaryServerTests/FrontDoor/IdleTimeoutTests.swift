import Foundation
@testable import MomentaryServer
import NIOCore
import NIOPosix
import Testing
import VaporTesting

/// Connections that go quiet are closed, so a crowd of idle clients cannot hold the server.
@Suite("Server: idle connections")
struct IdleTimeoutTests {
    @Test("silent connections are closed after the idle timeout, while the server keeps answering")
    func silentConnectionsAreClosed() async throws {
        try await withTestApp(adjusting: { $0.idleTimeoutSeconds = 1 }) { app, _ in
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try #require(app.http.server.shared.localAddress?.port)
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            // Timed from before the first connection: on a loaded machine opening fifty takes a
            // while, and the first may rightly be closed soon after the last one opens.
            let started = ContinuousClock.now
            var opened: [any Channel] = []
            for _ in 0..<50 {
                opened.append(try await bootstrap.connect(host: "127.0.0.1", port: port).get())
            }
            let channels = opened
            let closedInTime = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for channel in channels { try await channel.closeFuture.get() }
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(30))
                    return false
                }
                let first = try await group.next() ?? false
                group.cancelAll()
                return first
            }
            let elapsed = ContinuousClock.now - started
            for channel in channels { try? await channel.close().get() }
            #expect(closedInTime, "the server closed every silent connection")
            // The last connection opened after `started` and is closed a whole timeout later at the earliest.
            #expect(elapsed >= .milliseconds(950), "not before the timeout: \(elapsed)")

            // A client that talks is served as before.
            let health = try await app.client.get(URI(string: "http://127.0.0.1:\(port)/healthz"))
            #expect(health.status == .ok)
            await app.server.shutdown()
        }
        let directory = try TestScratch.folder("idle-timeout").path
        for bad in ["0", "3601", "soon"] {
            #expect(throws: ConfigurationError.self, "\(bad) is refused") {
                try Configuration.load(environment: ["MOMENTARY_IDLE_TIMEOUT_SECONDS": bad], dataDirectoryOverride: directory)
            }
        }
    }
}
