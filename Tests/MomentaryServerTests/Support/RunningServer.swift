import Fluent
import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import VaporTesting

/// A migrated test application listening on a free loopback port, so MomentaryClient can drive it
/// over real HTTP as an app would.
struct RunningServer {
    let app: Application
    let configuration: Configuration
    let baseURL: URL

    var db: any Database { app.db }

    func client(_ credentials: ParticipantCredentials? = nil) -> MomentaryAPIClient {
        MomentaryAPIClient(baseURL: baseURL, credentials: credentials)
    }
}

@discardableResult
func withRunningServer<T>(
    migrateFirst: Bool = true, timeSource: any TimeSource = SystemTimeSource(),
    adjusting adjust: (inout Configuration) -> Void = { _ in }, _ body: (RunningServer) async throws -> T
) async throws -> T {
    try await withTestApp(migrate: migrateFirst, timeSource: timeSource, adjusting: adjust) { app, configuration in
        try await app.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try #require(app.http.server.shared.localAddress?.port)
        let server = RunningServer(app: app, configuration: configuration, baseURL: URL(string: "http://127.0.0.1:\(port)")!)
        do {
            let result = try await body(server)
            await app.server.shutdown()
            return result
        } catch {
            await app.server.shutdown()
            throw error
        }
    }
}

import Testing
