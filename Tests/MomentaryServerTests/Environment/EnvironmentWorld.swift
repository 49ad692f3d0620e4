import AsyncHTTPClient
import Fluent
import Foundation
import MomentaryCore
@testable import MomentaryServer
import MomentaryTestServers
import Vapor

/// A test database with a study, a participant and the local Open-Meteo server, plus a provider
/// pointed at it: what every enrichment test starts from.
struct EnvironmentWorld {
    let app: Application
    let fixture: ExportFixture
    let participant: UUID
    let server: LocalOpenMeteoServer
    let provider: OpenMeteoProvider

    /// Places 300 m apart in central London (one grid cell) and one 20 km north (another).
    static let london = (latitude: 51.5072, longitude: -0.1276)
    static let nearby = (latitude: 51.5090, longitude: -0.1240)
    static let north = (latitude: 51.6900, longitude: -0.1276)

    static func with<T>(
        timeoutSeconds: Int = 5, apiKey: String? = nil, _ body: (EnvironmentWorld) async throws -> T
    ) async throws -> T {
        let server = try await LocalOpenMeteoServer.start()
        do {
            let result = try await withTestApp { app, _ in
                let fixture = try await ExportFixture.make(on: app.db)
                let participant = try await fixture.participant(on: app.db)
                var settings = OpenMeteoSettings()
                settings.forecastURL = URL(string: server.forecastURL)!
                settings.airQualityURL = URL(string: server.airQualityURL)!
                settings.timeoutSeconds = timeoutSeconds
                settings.apiKey = apiKey
                let provider = OpenMeteoProvider(settings: settings, client: app.http.client.shared)
                return try await body(EnvironmentWorld(app: app, fixture: fixture, participant: participant, server: server, provider: provider))
            }
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    var db: any Database { app.db }

    /// A response given at `place` and `submittedAt`.
    @discardableResult
    func response(at place: (latitude: Double, longitude: Double)?, submittedAt: Date) async throws -> UUID {
        let context = place.map {
            MomentaryCore.ResponseContext(
                location: LocationFix(latitude: $0.latitude, longitude: $0.longitude, timestamp: submittedAt), battery: 0.5)
        } ?? MomentaryCore.ResponseContext(battery: 0.5)
        return try await fixture.response(from: participant, submittedAt: submittedAt, context: context, on: db).requireID()
    }

    func context(of response: UUID) async throws -> SurveyResponseContext? {
        try await SurveyResponseContext.query(on: db).filter(\.$response.$id == response).first()
    }

    /// The stored weather of a response, decoded, or nil.
    func weather(of response: UUID) async throws -> WeatherReading? {
        guard let text = try await context(of: response)?.weather else { return nil }
        return try JSONDecoder().decode(WeatherReading.self, from: Data(text.utf8))
    }

    func readings() async throws -> [EnvironmentReadingRecord] {
        try await EnvironmentReadingRecord.query(on: db).sort(\.$hour).all()
    }

    @discardableResult
    func run(at now: Date, provider: (any EnvironmentProvider)? = nil) async throws -> EnvironmentEnrichment.Summary {
        try await EnvironmentEnrichment.run(on: db, provider: provider ?? self.provider, now: now, logger: app.logger)
    }

    /// Sets every variable the provider asks for to a value, so a full reading comes back.
    func serveTypicalValues() async {
        let values: [String: Double?] = [
            "temperature_2m": 8.4, "apparent_temperature": 5.9, "relative_humidity_2m": 81, "precipitation": 0.3,
            "wind_speed_10m": 17.6, "wind_direction_10m": 250, "cloud_cover": 93, "weather_code": 61,
            "pm2_5": 7.2, "pm10": 12.9, "ozone": 48, "nitrogen_dioxide": 31.5, "us_aqi": 42,
            "alder_pollen": 2, "birch_pollen": 18.5, "olive_pollen": nil, "grass_pollen": 6, "mugwort_pollen": 0.4, "ragweed_pollen": nil,
        ]
        for (name, value) in values { await server.set(name, to: value) }
    }
}
