import Foundation
@testable import MomentaryServer
import Testing
import Vapor

/// The test application itself: a test that fails must fail alone, not end the whole run.
@Suite("Test support: the test application")
struct TestAppTests {
    private struct Planned: Error {}

    @Test("a test that started the HTTP server and then threw gets its error, and the server is stopped")
    func serverStartedThenThrowing() async throws {
        // Without the stop in `withTestApp`, releasing the running server asserts in Vapor and
        // ends the test process.
        await #expect(throws: Planned.self) {
            try await withTestApp { app, _ in
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                #expect(app.http.server.shared.localAddress != nil)
                throw Planned()
            }
        }
    }
}
