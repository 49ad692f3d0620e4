import Foundation
import MomentaryCore

/// The IANA zone each Reporter report was lived in, from what the report says: the UTC offset of
/// its `date` (missing in the oldest files' numeric dates) and, usually, its location.
///
/// - A located report takes the zone of the nearest `zone.tab` city whose zone has the report's
///   offset at that instant (the rule the public statistics' regions use); the zone of the report
///   before stays when it has that offset too and lies in the same country, so a period spent in
///   one place keeps one zone rather than flicking between neighbours.
/// - A report without a location takes the zone of the nearest report in time that has the same
///   offset (the one before first), else the fallback (the study's zone) if its offset fits, else
///   a fixed-offset zone (`Etc/GMT+5` for −0500), so the offset Reporter wrote is never changed.
enum ReporterZoneInference {
    struct Report {
        var instant: Date
        /// Seconds east of UTC, as the report's date wrote it; nil for a numeric date.
        var offsetSeconds: Int?
        var latitude: Double?
        var longitude: Double?
    }

    /// One zone per report; `reports` are in time order.
    static func zones(for reports: [Report], zoneTab: ZoneTab = .shared, fallback: TimeZone) -> [TimeZone] {
        var located: [TimeZone?] = []
        var previous: TimeZone?
        for report in reports {
            guard let latitude = report.latitude, let longitude = report.longitude,
                  let city = zoneTab.citiesByNearness(latitude: latitude, longitude: longitude)
                      .first(where: { TimeZone(identifier: $0.zone).map { fits($0, report) } ?? false })
            else {
                located.append(nil)
                continue
            }
            let keepsPrevious = previous.map { fits($0, report) && zoneTab.countryByZone[$0.identifier] == city.country } ?? false
            let zone = keepsPrevious ? previous! : TimeZone(identifier: city.zone)!
            located.append(zone)
            previous = zone
        }
        return reports.indices.map { index in
            if let zone = located[index] { return zone }
            let report = reports[index]
            let before = located[..<index].reversed().lazy.compactMap { $0 }.first { fits($0, report) }
            let after = located[(index + 1)...].lazy.compactMap { $0 }.first { fits($0, report) }
            if let neighbour = before ?? after { return neighbour }
            if fits(fallback, report) { return fallback }
            return fixedOffsetZone(report.offsetSeconds ?? 0)
        }
    }

    private static func fits(_ zone: TimeZone, _ report: Report) -> Bool {
        report.offsetSeconds.map { zone.secondsFromGMT(for: report.instant) == $0 } ?? true
    }

    /// IANA's `Etc/GMT±h` for whole hours (its sign is inverted: `Etc/GMT+5` is five hours west),
    /// Foundation's `GMT±hhmm` otherwise.
    static func fixedOffsetZone(_ seconds: Int) -> TimeZone {
        if seconds % 3600 == 0, let zone = TimeZone(identifier: seconds == 0 ? "Etc/UTC" : String(format: "Etc/GMT%+d", -seconds / 3600)) {
            return zone
        }
        return TimeZone(secondsFromGMT: seconds) ?? TimeZone(identifier: "UTC")!
    }
}
