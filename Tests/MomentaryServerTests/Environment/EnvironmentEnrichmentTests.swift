import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import MomentaryTestServers
import Testing

@Suite("Environment enrichment against a local Open-Meteo")
struct EnvironmentEnrichmentTests {
    let nine = ExportFixture.march(10, 9, 15)

    @Test("responses of one cell and hour share one reading fetched with one request per API; others get their own")
    func oneRequestPerCellHour() async throws {
        try await EnvironmentWorld.with(apiKey: "k-123") { world in
            await world.serveTypicalValues()
            let first = try await world.response(at: EnvironmentWorld.london, submittedAt: nine)
            let second = try await world.response(at: EnvironmentWorld.nearby, submittedAt: nine.addingTimeInterval(1_500))
            let later = try await world.response(at: EnvironmentWorld.london, submittedAt: nine.addingTimeInterval(3_600))
            let away = try await world.response(at: EnvironmentWorld.north, submittedAt: nine)
            let unlocated = try await world.response(at: nil, submittedAt: nine)

            let summary = try await world.run(at: ExportFixture.march(10, 12))
            #expect(summary == EnvironmentEnrichment.Summary(assigned: 4, fetched: 3, failed: 0, filled: 4))
            #expect(await world.server.requests(.forecast).count == 3)
            #expect(await world.server.requests(.airQuality).count == 3)

            let weather = try #require(try await world.weather(of: first))
            #expect(weather == WeatherReading(temperature: 8.4, apparentTemperature: 5.9, relativeHumidity: 81, precipitation: 0.3,
                                              windSpeed: 17.6, windDirection: 250, cloudCover: 93, weatherCode: 61))
            let firstContext = try #require(try await world.context(of: first))
            let secondContext = try #require(try await world.context(of: second))
            #expect(secondContext.weather == firstContext.weather && secondContext.airQuality == firstContext.airQuality)
            #expect(try await world.weather(of: later) != nil)
            #expect(try await world.weather(of: away) != nil)
            #expect(try await world.context(of: unlocated)?.weather == nil)

            // The air-quality JSON carries the US AQI with its EPA category; pollen its types and risks.
            let air = try JSONDecoder().decode(JSONValue.self, from: Data(try #require(firstContext.airQuality).utf8))
            #expect(air == .object([
                "pm2_5_ugm3": .number(7.2), "pm10_ugm3": .number(12.9), "o3_ugm3": .number(48), "no2_ugm3": .number(31.5),
                "aqi": .number(42), "aqi_scale": .string("us_epa"), "epa_category": .string("Good"),
            ]))
            let pollen = try JSONDecoder().decode(PollenCounts.self, from: Data(try #require(firstContext.pollen).utf8))
            #expect(pollen == PollenCounts(tree: 18.5, grass: 6, weed: 0.4))
            #expect(pollen.risks.risk() == .medium && pollen.risks.risk(for: .tree) == .medium)

            // The provider is asked for the cell's centre and the one UTC hour, with the key.
            let asked = try #require(await world.server.requests(.forecast).first { $0.query["start_hour"] == "2026-03-10T09:00" && $0.query["latitude"]!.hasPrefix("51.5") })
            let cell = try #require(EnvironmentGridCell(latitude: EnvironmentWorld.london.latitude, longitude: EnvironmentWorld.london.longitude))
            #expect(asked.query["latitude"] == String(format: "%.4f", cell.centreLatitude))
            #expect(asked.query["longitude"] == String(format: "%.4f", cell.centreLongitude))
            #expect(asked.query["end_hour"] == "2026-03-10T09:00" && asked.query["timezone"] == "GMT" && asked.query["apikey"] == "k-123")

            // A later answer in a cell-hour already fetched is filled from the cache, without asking again.
            let third = try await world.response(at: EnvironmentWorld.london, submittedAt: nine.addingTimeInterval(600))
            let again = try await world.run(at: ExportFixture.march(10, 13))
            #expect(again == EnvironmentEnrichment.Summary(assigned: 1, fetched: 0, failed: 0, filled: 1))
            #expect(try await world.context(of: third)?.weather == firstContext.weather)
            #expect(await world.server.requests(.forecast).count == 3)
            #expect(try await world.readings().count == 3)
        }
    }

    @Test("a provider error leaves responses empty and is retried after a backoff that doubles; then the data arrives")
    func serverErrorRetried() async throws {
        try await EnvironmentWorld.with { world in
            await world.serveTypicalValues()
            await world.server.behave(.status(500, body: #"{"error":true,"reason":"Internal error"}"#), api: .forecast)
            let response = try await world.response(at: EnvironmentWorld.london, submittedAt: nine)
            let now = ExportFixture.march(10, 12)

            #expect(try await world.run(at: now).failed == 1)
            var reading = try #require(try await world.readings().first)
            #expect(reading.status == .pending && reading.attempts == 1 && reading.nextAttemptAt == now.addingTimeInterval(60))
            #expect(reading.lastError?.contains("500") == true && reading.lastError?.contains("Internal error") == true)
            #expect(try await world.context(of: response)?.weather == nil)

            // Not due yet: nothing is asked.
            #expect(try await world.run(at: now.addingTimeInterval(59)) == EnvironmentEnrichment.Summary())
            #expect(await world.server.requests(.forecast).count == 1)
            // Due: asked again, fails again, waits twice as long.
            #expect(try await world.run(at: now.addingTimeInterval(60)).failed == 1)
            reading = try #require(try await world.readings().first)
            #expect(reading.attempts == 2 && reading.nextAttemptAt == now.addingTimeInterval(60 + 120))

            await world.server.behave(.normal, api: .forecast)
            let recovered = try await world.run(at: now.addingTimeInterval(180))
            #expect(recovered.fetched == 1 && recovered.filled == 1)
            #expect(try await world.weather(of: response)?.temperature == 8.4)
            reading = try #require(try await world.readings().first)
            #expect(reading.status == .ready && reading.lastError == nil && reading.nextAttemptAt == nil)
        }
    }

    @Test("a provider that does not answer in time is a retryable failure, not a hang")
    func timeout() async throws {
        try await EnvironmentWorld.with(timeoutSeconds: 1) { world in
            await world.serveTypicalValues()
            await world.server.behave(.delay(seconds: 4), api: .airQuality)
            let response = try await world.response(at: EnvironmentWorld.london, submittedAt: nine)
            let summary = try await world.run(at: ExportFixture.march(10, 12))
            #expect(summary.failed == 1 && summary.fetched == 0)
            let reading = try #require(try await world.readings().first)
            #expect(reading.status == .pending && reading.lastError?.hasPrefix("unreachable") == true)
            #expect(try await world.context(of: response)?.weather == nil, "no half reading is stored")
        }
    }

    @Test("JSON that is not Open-Meteo's shape is reported and retried, whatever it is", arguments: [
        "not json at all",
        #"{"latitude":51.5,"longitude":-0.1}"#,
        #"{"hourly":{"time":["2026-03-10T08:00"],"temperature_2m":[3.0]}}"#,
        #"{"hourly":{"time":["2026-03-10T09:00"],"temperature_2m":["warm"]}}"#,
    ])
    func malformed(body: String) async throws {
        try await EnvironmentWorld.with { world in
            await world.serveTypicalValues()
            await world.server.behave(.body(body), api: .forecast)
            try await world.response(at: EnvironmentWorld.london, submittedAt: nine)
            let now = ExportFixture.march(10, 12)
            #expect(try await world.run(at: now).failed == 1)
            let reading = try #require(try await world.readings().first)
            #expect(reading.status == .pending && reading.lastError?.hasPrefix("malformed") == true, "\(reading.lastError ?? "")")
            #expect(reading.nextAttemptAt == now.addingTimeInterval(60))
        }
    }

    @Test("a request the provider refuses (400) is not asked again; failures give up after the last attempt")
    func refusedAndGivenUp() async throws {
        try await EnvironmentWorld.with { world in
            await world.server.behave(.status(400, body: #"{"error":true,"reason":"Parameter 'start_hour' is out of allowed range"}"#), api: .forecast)
            try await world.response(at: EnvironmentWorld.london, submittedAt: nine)
            let now = ExportFixture.march(10, 12)
            try await world.run(at: now)
            var reading = try #require(try await world.readings().first)
            #expect(reading.status == .unavailable && reading.nextAttemptAt == nil && reading.lastError?.contains("out of allowed range") == true)
            try await world.run(at: now.addingTimeInterval(86_400))
            #expect(await world.server.requests(.forecast).count == 1)

            await world.server.behave(.status(503, body: ""), api: .forecast)
            try await world.response(at: EnvironmentWorld.north, submittedAt: nine)
            var clock = now
            for _ in 0..<EnvironmentEnrichment.maximumAttempts {
                try await world.run(at: clock)
                clock = clock.addingTimeInterval(EnvironmentEnrichment.backoff(afterAttempt: EnvironmentEnrichment.maximumAttempts))
            }
            reading = try #require(try await world.readings().first { $0.status != .unavailable })
            #expect(reading.status == .failed && reading.attempts == EnvironmentEnrichment.maximumAttempts)
            #expect(EnvironmentEnrichment.backoff(afterAttempt: 30) == 6 * 3_600)
        }
    }

    @Test("a backfill fills a study's history, retrying what was given up, with a progress line per page")
    func backfill() async throws {
        try await EnvironmentWorld.with { world in
            await world.serveTypicalValues()
            var responses: [UUID] = []
            for hour in 0..<5 {
                responses.append(try await world.response(at: EnvironmentWorld.london, submittedAt: nine.addingTimeInterval(Double(hour) * 3_600)))
                responses.append(try await world.response(at: EnvironmentWorld.nearby, submittedAt: nine.addingTimeInterval(Double(hour) * 3_600 + 60)))
            }
            // One place-hour was refused before (say, while the server pointed at the wrong archive).
            await world.server.behave(.status(400, body: #"{"error":true,"reason":"out of range"}"#), api: .forecast)
            try await EnvironmentEnrichment.run(on: world.db, provider: world.provider, now: Date(), logger: world.app.logger, fetchLimit: 1)
            await world.server.behave(.normal, api: .forecast)

            var lines: [String] = []
            let result = try await EnvironmentEnrichment.backfill(
                study: try world.fixture.study.requireID(), on: world.db, provider: world.provider, logger: world.app.logger, pageSize: 2
            ) { lines.append($0.line) }
            #expect(result == EnvironmentEnrichment.BackfillProgress(placeHours: 5, fetched: 5, failed: 0, filled: 10))
            #expect(lines.first == "Environment: 0 of 5 place-hours asked (0 failed), 0 responses filled")
            #expect(lines.last == "Environment: 5 of 5 place-hours asked (0 failed), 10 responses filled")
            #expect(lines.count == 4)
            for response in responses {
                #expect(try await world.weather(of: response)?.temperature == 8.4)
            }
        }
    }

    @Test("the backfill command says what to set when no provider is configured")
    func backfillWithoutProvider() async throws {
        let directory = TestScratch.file("momentary-env")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = await runCommand(["environment", "backfill", "--study", "nowhere", "--data", directory.path])
        #expect(result.code == 1 && result.errors.contains("MOMENTARY_ENVIRONMENT_PROVIDER"), "\(result.errors)")
    }
}
