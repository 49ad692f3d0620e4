import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Environment risk in the participant's status")
struct EnvironmentStatusTests {
    @Test("the status carries the risk at the latest located answer of the last day once its reading is in, and nothing before")
    func statusRisk() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let participantID = try await fixture.participant(on: app.db)
            let participant = try #require(try await Participant.find(participantID, on: app.db))
            let now = ExportFixture.march(10, 18, 20)
            try await fixture.response(from: participantID, submittedAt: now.addingTimeInterval(-30 * 3_600), on: app.db)
            #expect(try await ParticipantStatusService.status(of: participant, on: app.db, now: now).environment == nil)

            try await fixture.response(from: participantID, submittedAt: now.addingTimeInterval(-3_000), on: app.db)
            #expect(try await ParticipantStatusService.status(of: participant, on: app.db, now: now).environment == nil,
                    "not fetched yet: nothing, and the request does not wait for a provider")

            let provider = FixtureEnvironmentProvider()
            try await EnvironmentEnrichment.run(on: app.db, provider: provider, now: now, logger: app.logger)
            let risk = try #require(try await ParticipantStatusService.status(of: participant, on: app.db, now: now).environment)
            let cell = try #require(EnvironmentGridCell(latitude: 51.5, longitude: -0.12))
            let hour = ExportFixture.march(10, 17)
            let reading = try await provider.reading(latitude: cell.centreLatitude, longitude: cell.centreLongitude, hour: hour)
            #expect(risk == EnvironmentRisk(hour: hour, weather: reading.weather, airQuality: reading.airQuality, pollen: reading.pollen))
            #expect(risk.pollenType == .grass && risk.pollenRisk == reading.pollen?.risks.risk(for: .grass))
            #expect(risk.airQuality != nil && risk.airQualityAdvice == reading.airQuality?.epaCategory?.advice)

            let status = try await ParticipantStatusService.status(of: participant, on: app.db, now: now)
            let wire = try WireCoding.makeDecoder().decode(ParticipantStatus.self, from: WireCoding.makeEncoder().encode(status))
            #expect(wire.environment == risk, "the app reads back what the server wrote")

            // A participant who says they react to tree pollen is shown the tree risk from then on.
            try await ParticipantSettingsService.updateSettings(
                SettingsUpdate(settings: participant.signallingSettings, pollenSensitivity: .tree), of: participant, on: app.db, now: now)
            let reloaded = try #require(try await Participant.find(participantID, on: app.db))
            let treeRisk = try #require(try await ParticipantStatusService.status(of: reloaded, on: app.db, now: now).environment)
            #expect(treeRisk.pollenType == .tree && treeRisk.pollenRisk == reading.pollen?.risks.risk(for: .tree))
            #expect(treeRisk.airQuality == risk.airQuality, "only the pollen part follows the sensitivity")
            #expect(try await ParticipantStatusService.status(of: participant, on: app.db, now: now.addingTimeInterval(86_400)).environment == nil,
                    "a day later the answer is too old to say anything about today")
        }
    }
}
