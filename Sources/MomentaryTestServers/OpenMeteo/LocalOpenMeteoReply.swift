import Foundation

/// The body of a successful Open-Meteo reply, written out as the API documents it, e.g.
/// `{"latitude":51.5,"longitude":-0.12,"generationtime_ms":0.05,"utc_offset_seconds":0,
/// "timezone":"GMT","timezone_abbreviation":"GMT","elevation":23.0,"hourly_units":{"time":"iso8601",
/// "temperature_2m":"°C"},"hourly":{"time":["2026-03-10T09:00"],"temperature_2m":[8.4]}}`.
enum LocalOpenMeteoReply {
    static let units: [String: String] = [
        "temperature_2m": "°C", "apparent_temperature": "°C", "relative_humidity_2m": "%", "precipitation": "mm",
        "wind_speed_10m": "km/h", "wind_direction_10m": "°", "cloud_cover": "%", "weather_code": "wmo code",
        "pm2_5": "μg/m³", "pm10": "μg/m³", "ozone": "μg/m³", "nitrogen_dioxide": "μg/m³", "us_aqi": "USAQI",
    ]

    static func body(for query: [String: String], values: [String: Double?]) -> (Int, String) {
        guard let latitude = query["latitude"].flatMap(Double.init), let longitude = query["longitude"].flatMap(Double.init) else {
            return (400, #"{"error":true,"reason":"Parameter 'latitude' and 'longitude' must be set"}"#)
        }
        guard let start = query["start_hour"].flatMap(hour), let end = query["end_hour"].flatMap(hour), start <= end else {
            return (400, #"{"error":true,"reason":"Parameter 'start_hour' and 'end_hour' must be ISO8601 hours"}"#)
        }
        let variables = (query["hourly"] ?? "").split(separator: ",").map(String.init)
        let times = stride(from: start, through: end, by: 3_600).map(text)
        let units = (["\"time\":\"iso8601\""] + variables.map { "\"\($0)\":\"\(Self.units[$0] ?? "grains/m³")\"" })
            .joined(separator: ",")
        let columns = variables.map { variable -> String in
            let value = values[variable] ?? nil
            let cell = value.map { String($0) } ?? "null"
            return "\"\(variable)\":[\(Array(repeating: cell, count: times.count).joined(separator: ","))]"
        }
        let time = "\"time\":[\(times.map { "\"\($0)\"" }.joined(separator: ","))]"
        let body = """
            {"latitude":\(latitude),"longitude":\(longitude),"generationtime_ms":0.0519752502441406,\
            "utc_offset_seconds":0,"timezone":"GMT","timezone_abbreviation":"GMT","elevation":23.0,\
            "hourly_units":{\(units)},"hourly":{\(([time] + columns).joined(separator: ","))}}
            """
        return (200, body)
    }

    private static var formatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter
    }

    private static func hour(_ text: String) -> TimeInterval? { formatter.date(from: text)?.timeIntervalSince1970 }
    private static func text(_ instant: TimeInterval) -> String { formatter.string(from: Date(timeIntervalSince1970: instant)) }
}
