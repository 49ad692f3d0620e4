import Foundation
@testable import MomentaryCore
@testable import MomentaryServer
import Testing

@Suite("Reporter zone inference")
struct ReporterZoneInferenceTests {
    static func report(_ text: String, _ latitude: Double? = nil, _ longitude: Double? = nil) throws -> ReporterZoneInference.Report {
        let date = try #require(ReporterDate.parse(text))
        return ReporterZoneInference.Report(instant: date.instant, offsetSeconds: date.utcOffsetSeconds, latitude: latitude, longitude: longitude)
    }

    @Test("a trip across zones and a DST change: each report in the zone of its place and offset, reports without a place by their neighbours")
    func trip() throws {
        let reports = [
            try Self.report("2015-03-07T20:00:00-0500", 40.72, -73.99),   // New York, standard time
            try Self.report("2015-03-08T12:00:00-0400"),                  // the day DST starts, no place: same zone, new offset
            try Self.report("2015-03-10T09:00:00+0000", 51.51, -0.13),    // London
            try Self.report("2015-03-11T09:00:00+0530", 22.57, 88.36),    // Kolkata, at its half hour
            try Self.report("2015-03-12T09:00:00+0530"),                  // no place, same offset
            try Self.report("2015-03-13T09:00:00+0900"),                  // no place, an offset nobody nearby has
        ]
        let zones = ReporterZoneInference.zones(for: reports, fallback: TimeZone(identifier: "America/New_York")!)
        #expect(zones.map(\.identifier) == [
            "America/New_York", "America/New_York", "Europe/London", "Asia/Kolkata", "Asia/Kolkata", "Etc/GMT-9",
        ])
    }

    @Test("the offset decides between neighbouring zones, and a numeric date (no offset) takes the nearest")
    func offsetDecides() throws {
        // Near the Arizona border in summer: Phoenix keeps −0700 while Denver is at −0600.
        let summer = try Self.report("2015-07-01T12:00:00-0600", 36.9, -109.1)
        let zones = ReporterZoneInference.zones(for: [summer], fallback: TimeZone(identifier: "UTC")!)
        #expect(zones.first?.secondsFromGMT(for: summer.instant) == -6 * 3600)
        let numeric = ReporterZoneInference.Report(instant: Date(timeIntervalSince1970: 1_400_000_000), offsetSeconds: nil, latitude: 52.52, longitude: 13.40)
        #expect(ReporterZoneInference.zones(for: [numeric], fallback: TimeZone(identifier: "UTC")!).map(\.identifier) == ["Europe/Berlin"])
        #expect(ReporterZoneInference.zones(for: [try Self.report("2015-07-01T12:00:00+0100")], fallback: TimeZone(identifier: "Europe/London")!)
            .map(\.identifier) == ["Europe/London"], "no place, no neighbour: the study's zone when its offset fits")
    }
}
