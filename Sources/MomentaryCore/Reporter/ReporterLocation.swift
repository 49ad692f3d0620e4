import Foundation

/// A location as Reporter writes it: Core Location's `CLLocation` properties (degrees, metres,
/// metres a second; a negative accuracy or speed means "not known") with its `timestamp` (seconds
/// since 2001-01-01 UTC in early 2014 files, a time with its offset from 2014-03-31 on), and, for a
/// snapshot's location, the reverse-geocoded `placemark`.
public struct ReporterLocation: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var course: Double?
    public var speed: Double?
    /// When the fix was taken, in the form it was read in.
    public var timestamp: ReporterDate
    /// Address parts by Core Location's names (`locality`, `country`, `postalCode`, …).
    public var placemark: [String: JSONValue]?

    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil, course: Double? = nil, speed: Double? = nil, timestamp: ReporterDate,
        placemark: [String: JSONValue]? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
        self.placemark = placemark
    }

    enum CodingKeys: String, CodingKey {
        case latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy, course, speed, timestamp, placemark
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        latitude = try container.decode(Double.self, forKey: .latitude)
        guard (-90...90).contains(latitude) else {
            throw DecodingError.dataCorruptedError(forKey: .latitude, in: container, debugDescription: "must be between -90 and 90 degrees.")
        }
        longitude = try container.decode(Double.self, forKey: .longitude)
        guard (-180...180).contains(longitude) else {
            throw DecodingError.dataCorruptedError(forKey: .longitude, in: container, debugDescription: "must be between -180 and 180 degrees.")
        }
        altitude = try container.decodeIfPresent(Double.self, forKey: .altitude)
        horizontalAccuracy = try container.decodeIfPresent(Double.self, forKey: .horizontalAccuracy)
        verticalAccuracy = try container.decodeIfPresent(Double.self, forKey: .verticalAccuracy)
        course = try container.decodeIfPresent(Double.self, forKey: .course)
        speed = try container.decodeIfPresent(Double.self, forKey: .speed)
        timestamp = try container.decode(ReporterDate.self, forKey: .timestamp)
        placemark = try container.decodeIfPresent([String: JSONValue].self, forKey: .placemark)
    }

    public var date: Date { timestamp.instant }

    /// A placemark part that is text (`name`, `country`, …).
    public func placemarkText(_ key: String) -> String? { placemark?[key]?.stringValue }

    /// As Momentary stores a fix: Core Location's "unknown" (a negative accuracy) becomes nil.
    public var fix: LocationFix {
        LocationFix(
            latitude: latitude, longitude: longitude, altitude: altitude,
            horizontalAccuracy: horizontalAccuracy.flatMap { $0 >= 0 ? $0 : nil },
            verticalAccuracy: verticalAccuracy.flatMap { $0 >= 0 ? $0 : nil }, timestamp: date)
    }
}
