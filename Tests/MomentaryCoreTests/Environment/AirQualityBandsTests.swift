import MomentaryCore
import Testing

@Suite("Air quality and pollen risk tables")
struct AirQualityBandsTests {
    @Test("every NAQI band edge falls where the table says, with its EPA category", arguments: [
        (0.0, "Good", "Good"), (50, "Good", "Good"), (50.5, "Satisfactory", "Moderate"), (51, "Satisfactory", "Moderate"),
        (100, "Satisfactory", "Moderate"), (101, "Moderate", "Unhealthy for Sensitive Groups"),
        (200, "Moderate", "Unhealthy for Sensitive Groups"), (201, "Poor", "Unhealthy"), (300, "Poor", "Unhealthy"),
        (301, "Very Poor", "Very Unhealthy"), (400, "Very Poor", "Very Unhealthy"), (401, "Severe", "Hazardous"),
        (500, "Severe", "Hazardous"), (730, "Severe", "Hazardous"),
    ])
    func edges(value: Double, remark: String, epa: String) throws {
        let band = try #require(AirQualityBands.band(naqi: value))
        #expect(band.remark == remark && band.epa.name == epa, "NAQI \(value)")
    }

    @Test("health risks and EPA ranges follow the tables rank for rank; nonsense values have no band")
    func tables() {
        #expect(AirQualityBands.naqi.map(\.healthRisk) == ["None", "Low", "Moderate", "High", "Very High", "Hazardous"])
        #expect(AirQualityBands.naqi.map(\.epa.range) == [0...50, 51...100, 101...150, 151...200, 201...300, 301...500])
        #expect(AirQualityBands.naqi.map(\.upperBound) == [50, 100, 200, 300, 400, 500])
        #expect(AirQualityBands.band(naqi: -1) == nil && AirQualityBands.band(naqi: .nan) == nil && AirQualityBands.band(naqi: .infinity) == nil)
        #expect(AirQualityBands.naqi.allSatisfy { !$0.epa.advice.isEmpty && !$0.epa.concerned.isEmpty })
    }

    @Test("the pollen risk shown is the grass risk unless the participant chose another type")
    func pollen() {
        let reading = PollenReading(tree: .high, grass: .medium, weed: .low)
        #expect(reading.risk() == .medium)
        #expect(reading.risk(for: .tree) == .high && reading.risk(for: .weed) == .low)
        #expect(PollenReading(tree: .high).risk() == nil, "no grass reading: no default risk")
        #expect(PollenRisk(word: " High") == .high && PollenRisk(word: "MEDIUM") == .medium && PollenRisk(word: "extreme") == nil)
    }
}
