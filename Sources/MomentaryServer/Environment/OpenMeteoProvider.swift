import AsyncHTTPClient
import Foundation
import MomentaryCore
import NIOCore
import NIOHTTP1

/// Weather from Open-Meteo's forecast API and air quality and pollen from its air-quality API:
/// two GETs per cell-hour, each asking for the one hour (`start_hour` = `end_hour`, in GMT) and
/// reading it out of the `hourly` arrays. The API key, when set, goes as `apikey` (Open-Meteo's
/// customer servers); base URLs are configurable so tests point them at a local server.
struct OpenMeteoProvider: EnvironmentProvider {
    let name = "open-meteo"
    let settings: OpenMeteoSettings
    let client: HTTPClient

    static let weatherVariables = [
        "temperature_2m", "apparent_temperature", "relative_humidity_2m", "precipitation",
        "wind_speed_10m", "wind_direction_10m", "cloud_cover", "weather_code",
    ]
    static let airQualityVariables = [
        "pm2_5", "pm10", "ozone", "nitrogen_dioxide", "us_aqi",
        "alder_pollen", "birch_pollen", "olive_pollen", "grass_pollen", "mugwort_pollen", "ragweed_pollen",
    ]
    /// A reply longer than this is not the few hundred bytes one hour takes.
    static let maximumBodyLength = 1 << 20

    func reading(latitude: Double, longitude: Double, hour: Date) async throws(EnvironmentFailure) -> EnvironmentReading {
        let weather = try await hourly(settings.forecastURL, Self.weatherVariables, latitude, longitude, hour)
        let air = try await hourly(settings.airQualityURL, Self.airQualityVariables, latitude, longitude, hour)
        let weatherReading = WeatherReading(
            temperature: weather["temperature_2m"], apparentTemperature: weather["apparent_temperature"],
            relativeHumidity: weather["relative_humidity_2m"], precipitation: weather["precipitation"],
            windSpeed: weather["wind_speed_10m"], windDirection: weather["wind_direction_10m"],
            cloudCover: weather["cloud_cover"], weatherCode: weather["weather_code"].map { Int($0.rounded()) })
        let airReading = AirQualityReading(
            pm2_5: air["pm2_5"], pm10: air["pm10"], ozone: air["ozone"], nitrogenDioxide: air["nitrogen_dioxide"],
            aqi: air["us_aqi"], aqiScale: .usEPA)
        // Open-Meteo models single species; a type's count is that of its most abundant species
        // (a participant allergic to birch suffers from birch, whatever alder does).
        let pollen = PollenCounts(
            tree: Self.largest(air["alder_pollen"], air["birch_pollen"], air["olive_pollen"]),
            grass: air["grass_pollen"],
            weed: Self.largest(air["mugwort_pollen"], air["ragweed_pollen"]))
        return EnvironmentReading(
            hour: hour, latitude: latitude, longitude: longitude, source: name,
            weather: weatherReading.isEmpty ? nil : weatherReading, airQuality: airReading.isEmpty ? nil : airReading,
            pollen: pollen.isEmpty ? nil : pollen)
    }

    private static func largest(_ values: Double?...) -> Double? {
        values.compactMap { $0 }.max()
    }

    /// The values of `variables` for `hour` from one API (nil where the API has none).
    private func hourly(
        _ base: URL, _ variables: [String], _ latitude: Double, _ longitude: Double, _ hour: Date
    ) async throws(EnvironmentFailure) -> [String: Double] {
        let hourText = OpenMeteoHourly.hourText(hour)
        let url = requestURL(base, variables, latitude, longitude, hourText)
        let host = base.host ?? base.absoluteString
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let status: HTTPResponseStatus
        let body: ByteBuffer
        do {
            let response = try await client.execute(request, timeout: .seconds(Int64(settings.timeoutSeconds)))
            status = response.status
            body = try await response.body.collect(upTo: Self.maximumBodyLength)
        } catch {
            throw EnvironmentFailure(kind: .unreachable, message: "\(host) did not answer: \(error)")
        }
        let data = Data(body.readableBytesView)
        guard status == .ok else {
            let reason = (try? JSONDecoder().decode(OpenMeteoError.self, from: data))?.reason
            let said = reason.map { " (“\($0)”)" } ?? ""
            let kind: EnvironmentFailure.Kind = status == .badRequest ? .refused : .providerError
            throw EnvironmentFailure(kind: kind, message: "\(host) answered \(status.code)\(said)")
        }
        do {
            let decoded = try JSONDecoder().decode(OpenMeteoBody.self, from: data)
            return try decoded.hourly.values(of: variables, at: hourText)
        } catch let failure as EnvironmentFailure {
            throw failure
        } catch {
            throw EnvironmentFailure(kind: .malformed, message: "\(host) answered with JSON of another shape: \(error)")
        }
    }

    private func requestURL(_ base: URL, _ variables: [String], _ latitude: Double, _ longitude: Double, _ hour: String) -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        var items = components.queryItems ?? []
        items += [
            URLQueryItem(name: "latitude", value: String(format: "%.4f", latitude)),
            URLQueryItem(name: "longitude", value: String(format: "%.4f", longitude)),
            URLQueryItem(name: "hourly", value: variables.joined(separator: ",")),
            URLQueryItem(name: "start_hour", value: hour), URLQueryItem(name: "end_hour", value: hour),
            URLQueryItem(name: "timezone", value: "GMT"),
        ]
        if let key = settings.apiKey { items.append(URLQueryItem(name: "apikey", value: key)) }
        components.queryItems = items
        return components.url!
    }
}

/// Open-Meteo's answer: `hourly` holds `time` (ISO 8601 local times without a zone, GMT as
/// asked) and one array per variable, index for index, with null where a value is missing.
struct OpenMeteoBody: Decodable {
    let hourly: OpenMeteoHourly
}

struct OpenMeteoError: Decodable {
    let reason: String
}

struct OpenMeteoHourly: Decodable {
    let time: [String]
    let series: [String: [Double?]]

    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        time = try container.decode([String].self, forKey: Key(stringValue: "time"))
        var series: [String: [Double?]] = [:]
        for key in container.allKeys where key.stringValue != "time" {
            series[key.stringValue] = try container.decode([Double?].self, forKey: key)
        }
        self.series = series
    }

    /// `2026-11-25T14:00`, the form Open-Meteo takes and gives in GMT.
    static func hourText(_ hour: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour], from: hour)
        return String(format: "%04d-%02d-%02dT%02d:00", c.year!, c.month!, c.day!, c.hour!)
    }

    /// Each variable's value at `hour`; a variable asked for but absent, or an array shorter than
    /// `time`, is a reply of another shape, and so is a reply without the hour.
    func values(of variables: [String], at hour: String) throws(EnvironmentFailure) -> [String: Double] {
        guard let index = time.firstIndex(of: hour) else {
            throw EnvironmentFailure(kind: .malformed, message: "the reply has no values for \(hour) (it covers \(time.first ?? "nothing")…)")
        }
        var values: [String: Double] = [:]
        for variable in variables {
            guard let column = series[variable], column.count == time.count else {
                throw EnvironmentFailure(kind: .malformed, message: "the reply lacks hourly \(variable)")
            }
            values[variable] = column[index]
        }
        return values
    }
}
