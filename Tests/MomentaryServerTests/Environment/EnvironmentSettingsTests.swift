import AsyncHTTPClient
import Foundation
@testable import MomentaryServer
import Testing

@Suite("Environment provider configuration")
struct EnvironmentSettingsTests {
    @Test("off by default; the demo uses made-up values unless a provider is named; Open-Meteo settings are read")
    func choices() throws {
        let none = try EnvironmentSettings.load(from: [:])
        #expect(none.provider == .none && none.intervalSeconds == 60 && none.openMeteo.timeoutSeconds == 10)
        #expect(none.openMeteo.forecastURL.absoluteString == "https://api.open-meteo.com/v1/forecast")
        let client = HTTPClient.shared
        #expect(none.makeProvider(demo: false, client: client) == nil)
        #expect(none.makeProvider(demo: true, client: client)?.name == "fixture")

        let chosen = try EnvironmentSettings.load(from: [
            "MOMENTARY_ENVIRONMENT_PROVIDER": "open-meteo", "MOMENTARY_OPEN_METEO_API_KEY": "secret",
            "MOMENTARY_OPEN_METEO_FORECAST_URL": "https://customer-api.open-meteo.com/v1/forecast",
            "MOMENTARY_OPEN_METEO_AIR_QUALITY_URL": "http://127.0.0.1:9000/v1/air-quality",
            "MOMENTARY_ENVIRONMENT_TIMEOUT_SECONDS": "3", "MOMENTARY_ENVIRONMENT_SECONDS": "30",
        ])
        #expect(chosen.makeProvider(demo: true, client: client)?.name == "open-meteo", "a named provider wins over the demo's")
        #expect(chosen.openMeteo.apiKey == "secret" && chosen.openMeteo.timeoutSeconds == 3 && chosen.intervalSeconds == 30)
        #expect(chosen.openMeteo.airQualityURL.port == 9000)
        let off = try EnvironmentSettings.load(from: ["MOMENTARY_ENVIRONMENT_PROVIDER": "none"])
        #expect(off.makeProvider(demo: true, client: client) == nil, "naming none switches the demo's off too")
    }

    @Test("a wrong value stops the server with a sentence naming the variable", arguments: [
        ("MOMENTARY_ENVIRONMENT_PROVIDER", "openmeteo"), ("MOMENTARY_OPEN_METEO_FORECAST_URL", "api.open-meteo.com/v1/forecast"),
        ("MOMENTARY_OPEN_METEO_AIR_QUALITY_URL", "ftp://example.org/aq"), ("MOMENTARY_ENVIRONMENT_TIMEOUT_SECONDS", "0"),
        ("MOMENTARY_ENVIRONMENT_TIMEOUT_SECONDS", "ten"), ("MOMENTARY_ENVIRONMENT_SECONDS", "1"),
    ])
    func loudFailures(variable: String, value: String) throws {
        let directory = TestScratch.file("momentary-env")
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: [variable: value], dataDirectoryOverride: directory.path)
        }
        #expect(error?.description.hasPrefix("\(variable) is “\(value)”") == true, "\(String(describing: error))")
    }
}
