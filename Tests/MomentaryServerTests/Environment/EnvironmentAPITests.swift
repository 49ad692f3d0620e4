import Foundation
import MomentaryClient
import MomentaryCore
@testable import MomentaryServer
import Testing
import Vapor
import VaporTesting

@Suite("Environment through the participant API")
struct EnvironmentAPITests {
    @Test("an answer with a location gains its environment in the background; the status shows the risk for the chosen pollen type")
    func endToEnd() async throws {
        try await withRunningServer { server in
            try await APIFixture.seedDemo(on: server.db)
            let (client, registration) = try await APIFixture.register(on: server)
            let basic = Data("\(registration.participantID.uuidString):\(registration.secret)".utf8).base64EncodedString()
            let headers: HTTPHeaders = ["Authorization": "Basic \(basic)", "Content-Type": "application/json"]
            func putSettings(_ extra: String) async throws -> (HTTPStatus, String?) {
                var result: (HTTPStatus, String?) = (.ok, nil)
                let json = #"{"beeps_per_day": 3, "start": "09:00", "end": "21:00"\#(extra)}"#
                try await server.app.testing().test(.PUT, "api/v1/settings", headers: headers, body: .init(string: json)) { response in
                    let field = response.status == .ok ? nil
                        : try WireCoding.makeDecoder().decode(APIErrorBody.self, from: Data(response.body.readableBytesView)).error.message
                    result = (response.status, field)
                }
                return result
            }

            _ = try await client.submitResponse(APIFixture.submission())
            #expect(try await client.status().environment == nil, "the upload is stored before any provider is asked")

            try await EnvironmentEnrichment.run(on: server.db, provider: FixtureEnvironmentProvider(), now: Date(), logger: server.app.logger)
            let grass = try #require(try await client.status().environment)
            #expect(grass.pollenType == .grass && grass.airQuality != nil && grass.temperature != nil)

            let (refused, message) = try await putSettings(#", "pollen_sensitivity": "cedar""#)
            #expect(refused == .badRequest && message?.contains("pollen_sensitivity") == true, "\(refused) \(message ?? "")")
            #expect(try await client.status().environment?.pollenType == .grass, "a refused change changes nothing")

            #expect(try await putSettings(#", "pollen_sensitivity": "weed""#).0 == .ok)
            let weed = try #require(try await client.status().environment)
            #expect(weed.pollenType == .weed && weed.hour == grass.hour)
            #expect(try await putSettings("").0 == .ok)
            #expect(try await client.status().environment?.pollenType == .weed, "leaving the key out keeps the choice")
        }
    }
}
