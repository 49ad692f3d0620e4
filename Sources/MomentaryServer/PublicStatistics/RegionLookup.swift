import Foundation

/// The country a response was given in, for the public hedonimeter's regions: from its location,
/// the country of the nearest time-zone city in the system's `zone.tab` (good to a country almost
/// everywhere people live), else from the participant's time zone; `unknown` when neither helps.
/// No geographic database is needed, and nothing leaves the server.
struct RegionLookup: Sendable {
    static let unknown = "unknown"
    static let shared = RegionLookup(zoneTab: try? String(contentsOfFile: "/usr/share/zoneinfo/zone.tab", encoding: .utf8))

    private struct City: Sendable {
        let country: String
        let latitude: Double
        let longitude: Double
    }

    private let cities: [City]
    private let countryByZone: [String: String]

    init(zoneTab: String?) {
        var cities: [City] = []
        var countryByZone: [String: String] = [:]
        for line in (zoneTab ?? "").split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let (latitude, longitude) = Self.coordinates(String(fields[1])) else { continue }
            cities.append(City(country: String(fields[0]), latitude: latitude, longitude: longitude))
            countryByZone[String(fields[2])] = String(fields[0])
        }
        self.cities = cities
        self.countryByZone = countryByZone
    }

    func region(latitude: Double?, longitude: Double?, timeZone: String?) -> String {
        if let latitude, let longitude, let city = nearest(latitude: latitude, longitude: longitude) { return city.country }
        return timeZone.flatMap { countryByZone[$0] } ?? Self.unknown
    }

    private func nearest(latitude: Double, longitude: Double) -> City? {
        let scale = cos(latitude * .pi / 180)
        return cities.min { a, b in
            distance(a, latitude, longitude, scale) < distance(b, latitude, longitude, scale)
        }
    }

    /// Squared equirectangular distance: enough to rank cities by nearness.
    private func distance(_ city: City, _ latitude: Double, _ longitude: Double, _ scale: Double) -> Double {
        var east = abs(city.longitude - longitude)
        if east > 180 { east = 360 - east }
        let north = city.latitude - latitude
        return north * north + (east * scale) * (east * scale)
    }

    /// `+5130-00008` or `+513030-0000731`: ±DDMM[SS]±DDDMM[SS].
    static func coordinates(_ text: String) -> (Double, Double)? {
        guard let split = text.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        guard let latitude = angle(String(text[..<split]), degreeDigits: 2),
              let longitude = angle(String(text[split...]), degreeDigits: 3) else { return nil }
        return (latitude, longitude)
    }

    private static func angle(_ text: String, degreeDigits: Int) -> Double? {
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = Array(text.dropFirst())
        guard digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4, digits.allSatisfy(\.isNumber) else { return nil }
        func number(_ range: Range<Int>) -> Double { Double(String(digits[range]))! }
        var value = number(0..<degreeDigits) + number(degreeDigits..<(degreeDigits + 2)) / 60
        if digits.count == degreeDigits + 4 { value += number((degreeDigits + 2)..<(degreeDigits + 4)) / 3600 }
        return sign == "-" ? -value : value
    }
}
