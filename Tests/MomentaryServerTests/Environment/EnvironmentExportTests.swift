import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Environment in the exports")
struct EnvironmentExportTests {
    @Test("after enrichment with the fixture provider, the JSON export and the workbook's Environment sheet carry the reading")
    func exportsFill() async throws {
        try await withTestApp { app, _ in
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            let located = try await fixture.response(from: alice, submittedAt: ExportFixture.march(7, 8), on: app.db)
            try await fixture.response(from: alice, submittedAt: ExportFixture.march(7, 9), context: nil, on: app.db)
            let provider = FixtureEnvironmentProvider()
            let summary = try await EnvironmentEnrichment.run(on: app.db, provider: provider, now: ExportFixture.march(7, 12), logger: app.logger)
            #expect(summary.filled == 1)
            let cell = try #require(EnvironmentGridCell(latitude: 51.5, longitude: -0.12))
            let expected = try await provider.reading(
                latitude: cell.centreLatitude, longitude: cell.centreLongitude, hour: ExportFixture.march(7, 8))
            let weather = try #require(expected.weather)
            let air = try #require(expected.airQuality)
            let pollen = try #require(expected.pollen)

            let json = try await exportBytes(.json, study: "city-moods", on: app.db).data
            let objects = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
            let context = try #require(objects.first { $0["response_id"] as? String == located.id?.uuidString.lowercased() }?["context"] as? [String: Any])
            #expect((context["weather"] as? [String: Any])?["temperature_c"] as? Double == weather.temperature)
            #expect((context["air_quality"] as? [String: Any])?["epa_category"] as? String == air.epaCategory?.name)
            #expect((context["pollen"] as? [String: Any])?["grass_risk"] as? String == pollen.risks.risk()?.rawValue)

            let workbook = try XLSXInspection(data: try await exportBytes(.xlsx, study: "city-moods", on: app.db).data)
            let rows = try workbook.rows(of: "Environment")
            #expect(rows.count == 2, "the located response only")
            let header = rows[0]
            let values = Dictionary(uniqueKeysWithValues: zip(header, rows[1] + Array(repeating: "", count: max(0, header.count - rows[1].count))))
            #expect(values["weather.temperature_c"].flatMap(Double.init) == weather.temperature)
            #expect(values["weather.weather_code"].flatMap(Int.init) == weather.weatherCode)
            #expect(values["air_quality.aqi_scale"] == "us_epa")
            #expect(values["pollen.tree_risk"] == pollen.risks.risk(for: .tree)?.rawValue)
        }
    }

    @Test("the fixture provider is deterministic per place and hour and differs between them")
    func fixtureDeterministic() async throws {
        let provider = FixtureEnvironmentProvider()
        let hour = ExportFixture.march(7, 8)
        let one = try await provider.reading(latitude: 51.55, longitude: -0.12, hour: hour)
        #expect(try await provider.reading(latitude: 51.55, longitude: -0.12, hour: hour) == one)
        #expect(try await provider.reading(latitude: 51.55, longitude: -0.12, hour: hour.addingTimeInterval(3_600)) != one)
        #expect(try await provider.reading(latitude: 48.85, longitude: 2.35, hour: hour) != one)
        #expect(one.weather?.temperature != nil && one.airQuality?.epaCategory != nil && one.pollen?.risks.risk() != nil)
    }
}
