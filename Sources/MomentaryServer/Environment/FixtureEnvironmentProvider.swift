import Foundation
import MomentaryCore

/// Plausible, deterministic values computed from place and hour, for tests and `serve --demo`:
/// the same cell-hour always gives the same reading, without any network or key. Temperatures
/// follow the day (coolest before dawn) and latitude; the numbers mean nothing beyond that.
struct FixtureEnvironmentProvider: EnvironmentProvider {
    let name = "fixture"

    func reading(latitude: Double, longitude: Double, hour: Date) async throws(EnvironmentFailure) -> EnvironmentReading {
        let hours = Int((hour.timeIntervalSince1970 / 3_600).rounded(.down))
        // Local solar hour, so the demo's afternoons are warmer than its nights wherever it is.
        let solarHour = Double(((hours % 24) + 24) % 24) + longitude / 15
        let daily = -cos((solarHour - 3) / 24 * 2 * .pi)
        let seed = Self.mix(hours, Int((latitude * 100).rounded()), Int((longitude * 100).rounded()))
        func unit(_ salt: Int) -> Double { Double(Self.mix(seed, salt, 0) % 1_000) / 1_000 }
        let temperature = Self.round(25 - abs(latitude) / 3 + 5 * daily + 4 * (unit(1) - 0.5))
        let wind = Self.round(3 + 25 * unit(3))
        let weather = WeatherReading(
            temperature: temperature, apparentTemperature: Self.round(temperature - wind / 10),
            relativeHumidity: Self.round(45 + 50 * unit(2)), precipitation: unit(4) > 0.8 ? Self.round(4 * unit(5)) : 0,
            windSpeed: wind, windDirection: Self.round(360 * unit(6)), cloudCover: Self.round(100 * unit(7)),
            weatherCode: [0, 1, 2, 3, 45, 61, 80][Self.mix(seed, 8, 0) % 7])
        let pm2_5 = Self.round(3 + 30 * unit(9))
        let air = AirQualityReading(
            pm2_5: pm2_5, pm10: Self.round(pm2_5 * 1.6), ozone: Self.round(20 + 80 * unit(10)),
            nitrogenDioxide: Self.round(5 + 40 * unit(11)), aqi: (pm2_5 * 3).rounded(), aqiScale: .usEPA)
        let pollen = PollenCounts(
            tree: Self.round(120 * unit(12)), grass: Self.round(40 * unit(13)), weed: Self.round(60 * unit(14)))
        return EnvironmentReading(
            hour: hour, latitude: latitude, longitude: longitude, source: name, weather: weather, airQuality: air, pollen: pollen)
    }

    private static func round(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// A small integer hash (not Swift's `Hasher`, which is seeded per process).
    private static func mix(_ a: Int, _ b: Int, _ c: Int) -> Int {
        var x = UInt64(bitPattern: Int64(a)) &* 0x9E37_79B9_7F4A_7C15
        x ^= UInt64(bitPattern: Int64(b)) &+ 0xBF58_476D_1CE4_E5B9 &+ (x << 6) &+ (x >> 2)
        x ^= UInt64(bitPattern: Int64(c)) &+ 0x94D0_49BB_1331_11EB &+ (x << 6) &+ (x >> 2)
        x = (x ^ (x >> 31)) &* 0xD6E8_FEB8_6659_FD93
        return Int(truncatingIfNeeded: (x ^ (x >> 32)) & 0x7FFF_FFFF)
    }
}
