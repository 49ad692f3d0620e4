import Foundation
import MomentaryCore

/// The environment attached to a response, in words for its page: the values with their units and
/// the risk categories, e.g. "8.4 °C (feels like 5.9 °C), humidity 81%, …". Text stored in another
/// shape (an import, an older provider) is shown as it is rather than hidden.
enum EnvironmentText {
    static func weather(_ json: String) -> String {
        guard let weather = decode(WeatherReading.self, json) else { return json }
        let number = ExportCell.numberText
        var parts: [String] = []
        if let value = weather.temperature {
            parts.append("\(number(value)) °C" + (weather.apparentTemperature.map { " (feels like \(number($0)) °C)" } ?? ""))
        }
        if let value = weather.relativeHumidity { parts.append("humidity \(number(value))%") }
        if let value = weather.precipitation { parts.append("precipitation \(number(value)) mm") }
        if let value = weather.windSpeed {
            parts.append("wind \(number(value)) km/h" + (weather.windDirection.map { " from \(number($0))°" } ?? ""))
        }
        if let value = weather.cloudCover { parts.append("cloud cover \(number(value))%") }
        if let code = weather.weatherCode { parts.append("WMO weather code \(code)") }
        return parts.isEmpty ? json : parts.joined(separator: ", ")
    }

    static func airQuality(_ json: String) -> String {
        guard let air = decode(AirQualityReading.self, json) else { return json }
        let number = ExportCell.numberText
        var parts: [String] = []
        if let aqi = air.aqi, let scale = air.aqiScale {
            let name = [AQIScale.usEPA: "US AQI", .europeanEAQI: "European AQI", .indianNAQI: "NAQI"][scale] ?? scale.rawValue
            parts.append("\(name) \(number(aqi))" + (air.epaCategory.map { " (\($0.name))" } ?? ""))
        }
        let pollutants: [(String, Double?)] = [("PM2.5", air.pm2_5), ("PM10", air.pm10), ("O₃", air.ozone), ("NO₂", air.nitrogenDioxide)]
        for (name, value) in pollutants {
            if let value { parts.append("\(name) \(number(value)) µg/m³") }
        }
        return parts.isEmpty ? json : parts.joined(separator: ", ")
    }

    static func pollen(_ json: String) -> String {
        guard let counts = decode(PollenCounts.self, json) else { return json }
        let risks = counts.risks
        let types: [(PollenType, Double?)] = [(.grass, counts.grass), (.tree, counts.tree), (.weed, counts.weed)]
        let parts = types.compactMap { type, grains in
            grains.map { "\(type.rawValue) \(ExportCell.numberText($0)) grains/m³ (\(risks.risk(for: type)?.rawValue ?? "?") risk)" }
        }
        return parts.isEmpty ? json : parts.joined(separator: ", ")
    }

    /// Decodes only objects written by `EnvironmentEnrichment`, which carry exactly the type's keys;
    /// another shape that happens to share a key would otherwise lose the rest of its fields.
    private static func decode<T: Codable>(_ type: T.Type, _ json: String) -> T? {
        let data = Data(json.utf8)
        guard case .object(let stored)? = try? JSONDecoder().decode(JSONValue.self, from: data),
              let value = try? JSONDecoder().decode(T.self, from: data),
              let written = try? JSONEncoder().encode(value),
              case .object(let expected)? = try? JSONDecoder().decode(JSONValue.self, from: written),
              Set(stored.keys) == Set(expected.keys) else { return nil }
        return value
    }
}
