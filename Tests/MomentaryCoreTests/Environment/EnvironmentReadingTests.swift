import Foundation
import MomentaryCore
import Testing

@Suite("Pollen count bands, environment wire types and the grid")
struct EnvironmentReadingTests {
    @Test("every pollen band edge of every type falls where the table says", arguments: [
        (PollenType.tree, 0.0, PollenRisk.low), (.tree, 14.9, .low), (.tree, 15, .medium), (.tree, 89.9, .medium), (.tree, 90, .high), (.tree, 5_000, .high),
        (.grass, 0, .low), (.grass, 4.9, .low), (.grass, 5, .medium), (.grass, 19.9, .medium), (.grass, 20, .high), (.grass, 800, .high),
        (.weed, 0, .low), (.weed, 9.9, .low), (.weed, 10, .medium), (.weed, 49.9, .medium), (.weed, 50, .high),
    ])
    func pollenEdges(type: PollenType, grains: Double, risk: PollenRisk) {
        #expect(PollenCountBands.risk(type, grains: grains) == risk, "\(type) \(grains) grains/m³")
    }

    @Test("nonsense counts have no risk; the risk shown follows the chosen sensitivity, grass by default")
    func pollenRiskShown() {
        #expect(PollenCountBands.risk(.grass, grains: -1) == nil && PollenCountBands.risk(.tree, grains: .nan) == nil)
        let counts = PollenCounts(tree: 120, grass: 6, weed: 2)
        #expect(counts.risks.risk() == .medium)
        #expect(counts.risks.risk(for: .tree) == .high && counts.risks.risk(for: .weed) == .low)
        #expect(PollenCounts(tree: 120).risks.risk() == nil, "no grass count: no default risk")
    }

    @Test("US AQI values fall in EPA's own categories at every edge; NAQI goes through its band; EAQI has none", arguments: [
        (0.0, "Good"), (50, "Good"), (51, "Moderate"), (100, "Moderate"), (101, "Unhealthy for Sensitive Groups"),
        (150, "Unhealthy for Sensitive Groups"), (151, "Unhealthy"), (200, "Unhealthy"), (201, "Very Unhealthy"),
        (300, "Very Unhealthy"), (301, "Hazardous"), (500, "Hazardous"), (612, "Hazardous"),
    ])
    func usAQI(value: Double, category: String) {
        #expect(AirQualityBands.epaCategory(value, scale: .usEPA)?.name == category, "US AQI \(value)")
    }

    @Test("other scales: NAQI 150 is EPA's sensitive-groups category, EAQI maps to nothing, negatives to nothing")
    func otherScales() {
        #expect(AirQualityBands.epaCategory(150, scale: .indianNAQI)?.name == "Unhealthy for Sensitive Groups")
        #expect(AirQualityBands.epaCategory(150, scale: .usEPA)?.name == "Unhealthy for Sensitive Groups")
        #expect(AirQualityBands.epaCategory(180, scale: .indianNAQI)?.name == "Unhealthy for Sensitive Groups")
        #expect(AirQualityBands.epaCategory(180, scale: .usEPA)?.name == "Unhealthy")
        #expect(AirQualityBands.epaCategory(40, scale: .europeanEAQI) == nil)
        #expect(AirQualityBands.epaCategory(-3, scale: .usEPA) == nil)
    }

    @Test("a reading round-trips through JSON with units in its keys and derived risks beside the values")
    func wire() throws {
        let reading = EnvironmentReading(
            hour: Date(timeIntervalSince1970: 1_780_000_000), latitude: 51.55, longitude: -0.11, source: "open-meteo",
            weather: WeatherReading(temperature: 14.2, apparentTemperature: 12.9, relativeHumidity: 71, precipitation: 0.4,
                                    windSpeed: 18.7, windDirection: 240, cloudCover: 88, weatherCode: 61),
            airQuality: AirQualityReading(pm2_5: 8.1, pm10: 14.5, ozone: 61, nitrogenDioxide: 22.3, aqi: 57, aqiScale: .usEPA),
            pollen: PollenCounts(tree: 3, grass: 24.5, weed: nil))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(reading)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let air = try #require(object["air_quality"] as? [String: Any])
        #expect(air["epa_category"] as? String == "Moderate" && air["aqi_scale"] as? String == "us_epa")
        let pollen = try #require(object["pollen"] as? [String: Any])
        #expect(pollen["grass_risk"] as? String == "high" && pollen["tree_risk"] as? String == "low")
        #expect(pollen["weed_risk"] is NSNull && pollen["weed_grains_m3"] is NSNull)
        let weather = try #require(object["weather"] as? [String: Any])
        #expect(weather["temperature_c"] as? Double == 14.2 && weather["weather_code"] as? Int == 61)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(EnvironmentReading.self, from: data) == reading)
    }

    @Test("grid cells are about 11 km on each side from the equator to the far north, and neighbours share one")
    func grid() throws {
        for latitude in [0.0, 35.7, 51.5, 64.1, 78.2] {
            let cell = try #require(EnvironmentGridCell(latitude: latitude, longitude: 10))
            let widthKm = 360 / Double(EnvironmentGridCell.columnCount(row: cell.row)) * 111.32 * cos(cell.centreLatitude * .pi / 180)
            #expect((11.1...11.2).contains(widthKm), "at \(latitude)° a cell is \(widthKm) km wide")
            #expect(abs(cell.centreLatitude - latitude) <= 0.05 + 1e-9)
        }
        // Two answers 300 m apart in central London share a cell; one 20 km away does not.
        let here = EnvironmentGridCell(latitude: 51.5072, longitude: -0.1276)
        #expect(here == EnvironmentGridCell(latitude: 51.5090, longitude: -0.1240))
        #expect(here != EnvironmentGridCell(latitude: 51.6900, longitude: -0.1276))
        #expect(EnvironmentGridCell(latitude: 0, longitude: 180) == EnvironmentGridCell(latitude: 0, longitude: -180))
        #expect(EnvironmentGridCell(latitude: 90, longitude: 0)?.row == EnvironmentGridCell.rowCount - 1)
        #expect(EnvironmentGridCell(latitude: 91, longitude: 0) == nil && EnvironmentGridCell(latitude: 0, longitude: .nan) == nil)
        #expect(EnvironmentGridCell.hour(of: Date(timeIntervalSince1970: 3_600 * 5 + 3_599)) == Date(timeIntervalSince1970: 3_600 * 5))
    }

    @Test("the settings update carries the pollen sensitivity when given: one of tree, grass, weed, never null")
    func sensitivityInSettings() throws {
        let decoder = WireCoding.makeDecoder()
        let plain = String(decoding: try WireCoding.makeEncoder().encode(SettingsUpdate(settings: .standard)), as: UTF8.self)
        let base = String(plain.dropLast())
        let weed = try decoder.decode(SettingsUpdate.self, from: Data((base + #", "pollen_sensitivity": "weed"}"#).utf8))
        #expect(weed.pollenSensitivity == .weed)
        #expect(try decoder.decode(SettingsUpdate.self, from: Data((base + "}").utf8)).pollenSensitivity == nil)
        #expect(throws: DecodingError.self) { try decoder.decode(SettingsUpdate.self, from: Data((base + #", "pollen_sensitivity": "cedar"}"#).utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(SettingsUpdate.self, from: Data((base + #", "pollen_sensitivity": null}"#).utf8)) }
        let encoded = try WireCoding.makeEncoder().encode(weed)
        #expect(try decoder.decode(SettingsUpdate.self, from: encoded) == weed)
    }
}
