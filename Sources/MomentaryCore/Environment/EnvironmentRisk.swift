import Foundation

/// What the app shows on its home screen about the air (`GET /api/v1/status`, `environment`):
/// the reading the server attached to the participant's latest located answer of the last day,
/// reduced to the risks a participant can act on: the EPA category of the air with its advice,
/// and the pollen risk for the participant's sensitivity (grass by default, ClimaFever's choice).
public struct EnvironmentRisk: Codable, Sendable, Hashable {
    /// The start of the UTC hour the values describe.
    public var hour: Date
    public var temperature: Double?
    public var aqi: Double?
    public var aqiScale: AQIScale?
    /// The EPA category name, who should take care and what to do.
    public var airQuality: String?
    public var airQualityConcerned: String?
    public var airQualityAdvice: String?
    /// The pollen type the risk is for, and the risk (nil where no count is known).
    public var pollenType: PollenType
    public var pollenRisk: PollenRisk?

    public init(hour: Date, weather: WeatherReading?, airQuality: AirQualityReading?, pollen: PollenCounts?, sensitivity: PollenType? = nil) {
        self.hour = hour
        temperature = weather?.temperature
        aqi = airQuality?.aqi
        aqiScale = airQuality?.aqiScale
        let category = airQuality?.epaCategory
        self.airQuality = category?.name
        airQualityConcerned = category?.concerned
        airQualityAdvice = category?.advice
        pollenType = sensitivity ?? PollenType.defaultSensitivity
        pollenRisk = pollen?.risks.risk(for: pollenType)
    }

    enum CodingKeys: String, CodingKey {
        case hour, temperature = "temperature_c", aqi, aqiScale = "aqi_scale", airQuality = "air_quality"
        case airQualityConcerned = "air_quality_concerned", airQualityAdvice = "air_quality_advice"
        case pollenType = "pollen_type", pollenRisk = "pollen_risk"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        hour = try c.decode(Date.self, forKey: .hour)
        temperature = try c.decodeIfPresent(Double.self, forKey: .temperature)
        aqi = try c.decodeIfPresent(Double.self, forKey: .aqi)
        aqiScale = try c.decodeIfPresent(AQIScale.self, forKey: .aqiScale)
        airQuality = try c.decodeIfPresent(String.self, forKey: .airQuality)
        airQualityConcerned = try c.decodeIfPresent(String.self, forKey: .airQualityConcerned)
        airQualityAdvice = try c.decodeIfPresent(String.self, forKey: .airQualityAdvice)
        pollenType = try c.decode(PollenType.self, forKey: .pollenType)
        pollenRisk = try c.decodeIfPresent(PollenRisk.self, forKey: .pollenRisk)
    }

    /// Every key written, null when unknown.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(hour, forKey: .hour)
        try c.encode(temperature, forKey: .temperature)
        try c.encode(aqi, forKey: .aqi)
        try c.encode(aqiScale, forKey: .aqiScale)
        try c.encode(airQuality, forKey: .airQuality)
        try c.encode(airQualityConcerned, forKey: .airQualityConcerned)
        try c.encode(airQualityAdvice, forKey: .airQualityAdvice)
        try c.encode(pollenType, forKey: .pollenType)
        try c.encode(pollenRisk, forKey: .pollenRisk)
    }
}
