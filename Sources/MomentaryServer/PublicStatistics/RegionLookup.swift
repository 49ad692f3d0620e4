import Foundation

/// The country a response was given in, for the public hedonimeter's regions: from its location,
/// the country of the nearest time-zone city in the system's `zone.tab` (good to a country almost
/// everywhere people live), else from the participant's time zone; `unknown` when neither helps.
struct RegionLookup: Sendable {
    static let unknown = "unknown"
    static let shared = RegionLookup(zoneTab: ZoneTab.shared)

    private let zoneTab: ZoneTab

    init(zoneTab: ZoneTab) {
        self.zoneTab = zoneTab
    }

    func region(latitude: Double?, longitude: Double?, timeZone: String?) -> String {
        if let latitude, let longitude, let city = zoneTab.nearest(latitude: latitude, longitude: longitude) { return city.country }
        return timeZone.flatMap { zoneTab.countryByZone[$0] } ?? Self.unknown
    }
}
