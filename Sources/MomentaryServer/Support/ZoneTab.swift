import Foundation

/// The system's `zone.tab`: each IANA time zone with its country and the coordinates of its
/// principal city. Nearness to those cities is how Momentary places a location in a country (the
/// public statistics' regions) and in a zone (a Reporter history's reports), with no geographic
/// database and nothing leaving the server.
struct ZoneTab: Sendable {
    static let shared = ZoneTab(text: try? String(contentsOfFile: "/usr/share/zoneinfo/zone.tab", encoding: .utf8))

    struct City: Sendable {
        let country: String
        let zone: String
        let latitude: Double
        let longitude: Double
    }

    let cities: [City]
    let countryByZone: [String: String]

    /// `text` is the file's contents; nil (no file) gives no cities.
    init(text: String?) {
        var cities: [City] = []
        var countryByZone: [String: String] = [:]
        for line in (text ?? "").split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let (latitude, longitude) = Self.coordinates(String(fields[1])) else { continue }
            cities.append(City(country: String(fields[0]), zone: String(fields[2]), latitude: latitude, longitude: longitude))
            countryByZone[String(fields[2])] = String(fields[0])
        }
        self.cities = cities
        self.countryByZone = countryByZone
    }

    /// Every city, nearest to the point first.
    func citiesByNearness(latitude: Double, longitude: Double) -> [City] {
        let scale = cos(latitude * .pi / 180)
        return cities.map { ($0, Self.distance($0, latitude, longitude, scale)) }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    func nearest(latitude: Double, longitude: Double) -> City? {
        let scale = cos(latitude * .pi / 180)
        return cities.min { Self.distance($0, latitude, longitude, scale) < Self.distance($1, latitude, longitude, scale) }
    }

    /// Squared equirectangular distance: enough to rank cities by nearness.
    private static func distance(_ city: City, _ latitude: Double, _ longitude: Double, _ scale: Double) -> Double {
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
