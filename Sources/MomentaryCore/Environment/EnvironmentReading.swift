import Foundation

/// The weather, air quality and pollen at one place for one hour, as the server attaches them to
/// the responses given there and then. Each part is nil when the provider had none.
public struct EnvironmentReading: Sendable, Hashable, Codable {
    /// The start of the hour (UTC) the values describe.
    public var hour: Date
    /// Where the values were asked for: the centre of the response's grid cell, not the response's own fix.
    public var latitude: Double
    public var longitude: Double
    /// Which provider gave them (`open-meteo`, `fixture`).
    public var source: String
    public var weather: WeatherReading?
    public var airQuality: AirQualityReading?
    public var pollen: PollenCounts?

    public init(
        hour: Date, latitude: Double, longitude: Double, source: String,
        weather: WeatherReading? = nil, airQuality: AirQualityReading? = nil, pollen: PollenCounts? = nil
    ) {
        self.hour = hour
        self.latitude = latitude
        self.longitude = longitude
        self.source = source
        self.weather = weather
        self.airQuality = airQuality
        self.pollen = pollen
    }

    enum CodingKeys: String, CodingKey {
        case hour, latitude, longitude, source, weather, airQuality = "air_quality", pollen
    }
}

/// Weather for one hour, in metric units (°C, mm, km/h, %); `weatherCode` is the WMO code.
public struct WeatherReading: Sendable, Hashable, Codable {
    public var temperature: Double?
    public var apparentTemperature: Double?
    public var relativeHumidity: Double?
    public var precipitation: Double?
    public var windSpeed: Double?
    public var windDirection: Double?
    public var cloudCover: Double?
    public var weatherCode: Int?

    public init(
        temperature: Double? = nil, apparentTemperature: Double? = nil, relativeHumidity: Double? = nil,
        precipitation: Double? = nil, windSpeed: Double? = nil, windDirection: Double? = nil,
        cloudCover: Double? = nil, weatherCode: Int? = nil
    ) {
        self.temperature = temperature
        self.apparentTemperature = apparentTemperature
        self.relativeHumidity = relativeHumidity
        self.precipitation = precipitation
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.cloudCover = cloudCover
        self.weatherCode = weatherCode
    }

    public var isEmpty: Bool { self == WeatherReading() }

    /// Units in the key names, so an export column says what its numbers mean.
    enum CodingKeys: String, CodingKey {
        case temperature = "temperature_c", apparentTemperature = "apparent_temperature_c"
        case relativeHumidity = "relative_humidity_percent", precipitation = "precipitation_mm"
        case windSpeed = "wind_speed_kmh", windDirection = "wind_direction_degrees"
        case cloudCover = "cloud_cover_percent", weatherCode = "weather_code"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            temperature: try c.decodeIfPresent(Double.self, forKey: .temperature),
            apparentTemperature: try c.decodeIfPresent(Double.self, forKey: .apparentTemperature),
            relativeHumidity: try c.decodeIfPresent(Double.self, forKey: .relativeHumidity),
            precipitation: try c.decodeIfPresent(Double.self, forKey: .precipitation),
            windSpeed: try c.decodeIfPresent(Double.self, forKey: .windSpeed),
            windDirection: try c.decodeIfPresent(Double.self, forKey: .windDirection),
            cloudCover: try c.decodeIfPresent(Double.self, forKey: .cloudCover),
            weatherCode: try c.decodeIfPresent(Int.self, forKey: .weatherCode))
    }

    /// Every key written, null when unknown, so each stored object has the same shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(temperature, forKey: .temperature)
        try c.encode(apparentTemperature, forKey: .apparentTemperature)
        try c.encode(relativeHumidity, forKey: .relativeHumidity)
        try c.encode(precipitation, forKey: .precipitation)
        try c.encode(windSpeed, forKey: .windSpeed)
        try c.encode(windDirection, forKey: .windDirection)
        try c.encode(cloudCover, forKey: .cloudCover)
        try c.encode(weatherCode, forKey: .weatherCode)
    }
}

/// The scale an air-quality index is on: providers differ, and the same number means different things.
public enum AQIScale: String, Sendable, Hashable, Codable, CaseIterable {
    case usEPA = "us_epa"
    case europeanEAQI = "european_eaqi"
    case indianNAQI = "indian_naqi"
}

/// Pollutant concentrations (µg/m³) and an index with its scale, for one hour.
public struct AirQualityReading: Sendable, Hashable, Codable {
    public var pm2_5: Double?
    public var pm10: Double?
    public var ozone: Double?
    public var nitrogenDioxide: Double?
    public var aqi: Double?
    public var aqiScale: AQIScale?

    public init(
        pm2_5: Double? = nil, pm10: Double? = nil, ozone: Double? = nil, nitrogenDioxide: Double? = nil,
        aqi: Double? = nil, aqiScale: AQIScale? = nil
    ) {
        self.pm2_5 = pm2_5
        self.pm10 = pm10
        self.ozone = ozone
        self.nitrogenDioxide = nitrogenDioxide
        self.aqi = aqi
        self.aqiScale = aqi == nil ? nil : aqiScale
    }

    public var isEmpty: Bool { self == AirQualityReading() }

    /// The EPA category of the index with its advice, when its scale maps to EPA's.
    public var epaCategory: AirQualityBands.EPACategory? {
        guard let aqi, let aqiScale else { return nil }
        return AirQualityBands.epaCategory(aqi, scale: aqiScale)
    }

    enum CodingKeys: String, CodingKey {
        case pm2_5 = "pm2_5_ugm3", pm10 = "pm10_ugm3", ozone = "o3_ugm3", nitrogenDioxide = "no2_ugm3"
        case aqi, aqiScale = "aqi_scale", epaCategory = "epa_category"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            pm2_5: try c.decodeIfPresent(Double.self, forKey: .pm2_5), pm10: try c.decodeIfPresent(Double.self, forKey: .pm10),
            ozone: try c.decodeIfPresent(Double.self, forKey: .ozone),
            nitrogenDioxide: try c.decodeIfPresent(Double.self, forKey: .nitrogenDioxide),
            aqi: try c.decodeIfPresent(Double.self, forKey: .aqi), aqiScale: try c.decodeIfPresent(AQIScale.self, forKey: .aqiScale))
    }

    /// The values and the EPA category name beside them (derived, so it is not read back).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pm2_5, forKey: .pm2_5)
        try c.encode(pm10, forKey: .pm10)
        try c.encode(ozone, forKey: .ozone)
        try c.encode(nitrogenDioxide, forKey: .nitrogenDioxide)
        try c.encode(aqi, forKey: .aqi)
        try c.encode(aqiScale, forKey: .aqiScale)
        try c.encode(epaCategory?.name, forKey: .epaCategory)
    }
}

extension AirQualityBands {
    /// The EPA categories in order.
    public static let epa: [EPACategory] = naqi.map(\.epa)

    /// The EPA category of an index value on `scale`: a US AQI is read against EPA's own ranges
    /// (anything above 500 is Hazardous), an Indian NAQI through its band. The European index has
    /// a scale of its own that the tables do not map, so it has none. Nil for nonsense values.
    public static func epaCategory(_ value: Double, scale: AQIScale) -> EPACategory? {
        guard value.isFinite, value >= 0 else { return nil }
        switch scale {
        case .usEPA: return epa.first { value <= Double($0.range.upperBound) } ?? epa.last
        case .indianNAQI: return band(naqi: value)?.epa
        case .europeanEAQI: return nil
        }
    }
}
