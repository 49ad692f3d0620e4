import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Environment on the response page")
struct EnvironmentResponsePageTests {
    @Test("the response page shows the environment in words with units and risk categories; other shapes stay as stored")
    func responsePage() async throws {
        try await withTestApp { app, _ in
            _ = try await WebsiteWorld.make(on: app.db)
            let fixture = try await ExportFixture.make(on: app.db)
            let alice = try await fixture.participant(on: app.db)
            let response = try await fixture.response(from: alice, submittedAt: ExportFixture.march(2, 9, 30), on: app.db)
            let weather = try EnvironmentEnrichment.jsonText(WeatherReading(
                temperature: 8.4, apparentTemperature: 5.9, relativeHumidity: 81, precipitation: 0.3,
                windSpeed: 17.6, windDirection: 250, cloudCover: 93, weatherCode: 61))
            let air = try EnvironmentEnrichment.jsonText(AirQualityReading(pm2_5: 7.2, pm10: 12.9, ozone: 48, nitrogenDioxide: 31.5, aqi: 112, aqiScale: .usEPA))
            let pollen = try EnvironmentEnrichment.jsonText(PollenCounts(tree: 95, grass: 6, weed: nil))
            try await ExportFixture.attachEnvironment(to: response, weather: weather, airQuality: air, pollen: pollen, on: app.db)
            let other = try await fixture.response(from: alice, submittedAt: ExportFixture.march(2, 10), on: app.db)
            try await ExportFixture.attachEnvironment(to: other, weather: #"{"temperature_c":6.5,"condition":"rain"}"#, airQuality: nil, pollen: nil, on: app.db)

            var client = WebClient(app)
            _ = try await client.signIn(WebsiteWorld.developer)
            let html = try await client.get("/studies/city-moods/responses/\(try response.requireID().uuidString)").body.string
            for expected in [
                "8.4 °C (feels like 5.9 °C)", "humidity 81%", "precipitation 0.3 mm", "wind 17.6 km/h from 250°",
                "US AQI 112 (Unhealthy for Sensitive Groups)", "PM2.5 7.2 µg/m³", "NO₂ 31.5 µg/m³",
                "grass 6 grains/m³ (medium risk)", "tree 95 grains/m³ (high risk)",
            ] {
                #expect(html.contains(expected), "the page shows \(expected)")
            }
            #expect(!html.contains("weed"), "no weed count, no weed line")
            let otherHTML = try await client.get("/studies/city-moods/responses/\(try other.requireID().uuidString)").body.string
            #expect(otherHTML.contains("condition") && otherHTML.contains("rain"), "a foreign shape is shown as stored")
        }
    }
}
