import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing

/// The built `momentary` executable, as an operator runs it.
@Suite("Environment in serve --demo", .serialized)
struct EnvironmentServeTests {
    @Test("serve --demo fills a located answer's environment with the fixture provider, with no key and no network")
    func demoFillsEnvironment() async throws {
        let data = TestScratch.file("momentary-env-serve").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(
            arguments: ["serve", "--demo", "--port", "0", "--data", data],
            environment: ["MOMENTARY_ENVIRONMENT_SECONDS": "5", "MOMENTARY_ENVIRONMENT_PROVIDER": nil])
        let base = try #require(URL(string: try await server.waitForListeningURL()))
        var step = "registering"
        do {
            // Right after start, as a phone might: registration takes the write lock before it
            // reads (lockStudyForWriting), so the signaller's start-up writes cannot make it fail.
            let registration = try await MomentaryAPIClient(baseURL: base).register(APIFixture.registration())
            let client = MomentaryAPIClient(
                baseURL: base, credentials: ParticipantCredentials(participantID: registration.participantID, secret: registration.secret))
            step = "answering"
            _ = try await client.submitResponse(APIFixture.submission())

            // The job runs at start and every 5 s; give it a few rounds on a busy machine.
            step = "asking for the status"
            var risk: EnvironmentRisk?
            for _ in 0..<30 where risk == nil {
                try await Task.sleep(for: .seconds(1))
                risk = try await client.status().environment
            }
            let found = try #require(risk, "the answer's environment appeared in the status")
            #expect(found.temperature != nil && found.airQuality != nil && found.pollenType == .grass && found.pollenRisk != nil)
        } catch {
            Issue.record("\(step) failed: \(error); the server said: \(server.output)")
        }
        await server.stop()
    }
}
