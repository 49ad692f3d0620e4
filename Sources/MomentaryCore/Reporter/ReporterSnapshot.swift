import Foundation

/// One report: what the phone sensed passively, when and why the report was made, and the answers.
/// Keys and units are Reporter's (seed 002). What Momentary has no field for (the state flags
/// `sync`, `draft`, `background`, `dwellStatus`, `sectionIdentifier`, `firedNotification`, the
/// `altitude` object, identifiers nested in parts) is not read here: the server keeps each report's
/// JSON beside what it stores (`ReporterKept`), so a round trip gives the file back whole.
public struct ReporterSnapshot: Codable, Sendable, Hashable {
    /// When the report was made, with the UTC offset Reporter wrote.
    public var date: ReporterDate
    /// Reporter's identifier of the report, when it wrote one.
    public var uniqueIdentifier: String?
    public var reportImpetus: ReportImpetus?
    /// Battery charge, 0…1; nil when not known.
    public var battery: Double?
    public var connection: ConnectionKind?
    public var steps: Int?
    public var audio: ReporterAudio?
    public var location: ReporterLocation?
    /// The photos' EXIF metadata as Reporter wrote it (Momentary keeps it as it is).
    public var photoSet: ReporterPhotoSet?
    /// Weather as the provider named it (Reporter used Weather Underground's keys).
    public var weather: [String: JSONValue]?
    public var responses: [ReporterResponse]

    public init(
        date: ReporterDate, uniqueIdentifier: String? = nil, reportImpetus: ReportImpetus? = nil, battery: Double? = nil,
        connection: ConnectionKind? = nil, steps: Int? = nil, audio: ReporterAudio? = nil, location: ReporterLocation? = nil,
        photoSet: ReporterPhotoSet? = nil, weather: [String: JSONValue]? = nil, responses: [ReporterResponse] = []
    ) {
        self.date = date
        self.uniqueIdentifier = uniqueIdentifier
        self.reportImpetus = reportImpetus
        self.battery = battery
        self.connection = connection
        self.steps = steps
        self.audio = audio
        self.location = location
        self.photoSet = photoSet
        self.weather = weather
        self.responses = responses
    }

    enum CodingKeys: String, CodingKey {
        case date, uniqueIdentifier, reportImpetus, battery, connection, steps, audio, location, photoSet, weather, responses
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        date = try container.decode(ReporterDate.self, forKey: .date)
        uniqueIdentifier = try container.decodeIfPresent(String.self, forKey: .uniqueIdentifier)
        reportImpetus = try container.decodeIfPresent(Int.self, forKey: .reportImpetus).map { code in
            guard let impetus = ReportImpetus.allCases.first(where: { $0.reporterCode == code }) else {
                throw DecodingError.dataCorruptedError(forKey: .reportImpetus, in: container, debugDescription: "must be 0 to 4, not \(code).")
            }
            return impetus
        }
        battery = try container.decodeIfPresent(Double.self, forKey: .battery)
        if let battery, battery > 1 {
            throw DecodingError.dataCorruptedError(forKey: .battery, in: container, debugDescription: "must be a fraction from 0 to 1.")
        }
        // iOS reports −1 when the charge is not known (battery monitoring off, a simulator).
        if let level = battery, level < 0 { battery = nil }
        connection = try container.decodeIfPresent(Int.self, forKey: .connection).map { code in
            guard let kind = ConnectionKind.allCases.first(where: { $0.reporterCode == code }) else {
                throw DecodingError.dataCorruptedError(forKey: .connection, in: container, debugDescription: "must be 0, 1 or 2, not \(code).")
            }
            return kind
        }
        steps = try container.decodeIfPresent(Int.self, forKey: .steps)
        audio = try container.decodeIfPresent(ReporterAudio.self, forKey: .audio)
        location = try container.decodeIfPresent(ReporterLocation.self, forKey: .location)
        photoSet = try container.decodeIfPresent(ReporterPhotoSet.self, forKey: .photoSet)
        weather = try container.decodeIfPresent([String: JSONValue].self, forKey: .weather)
        responses = try container.decodeIfPresent([ReporterResponse].self, forKey: .responses) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(uniqueIdentifier, forKey: .uniqueIdentifier)
        try container.encodeIfPresent(reportImpetus?.reporterCode, forKey: .reportImpetus)
        try container.encodeIfPresent(battery, forKey: .battery)
        try container.encodeIfPresent(connection?.reporterCode, forKey: .connection)
        try container.encodeIfPresent(steps, forKey: .steps)
        try container.encodeIfPresent(audio, forKey: .audio)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encodeIfPresent(photoSet, forKey: .photoSet)
        try container.encodeIfPresent(weather, forKey: .weather)
        try container.encode(responses, forKey: .responses)
    }
}

/// Sound over one second, in dB below the microphone's clipping point (so usually negative).
public struct ReporterAudio: Codable, Sendable, Hashable {
    public var avg: Double
    public var peak: Double

    public init(avg: Double, peak: Double) {
        self.avg = avg
        self.peak = peak
    }
}

/// The photos taken since the previous report, each as Reporter's EXIF dictionary.
public struct ReporterPhotoSet: Codable, Sendable, Hashable {
    public var photos: [JSONValue]

    public init(photos: [JSONValue]) {
        self.photos = photos
    }

    enum CodingKeys: String, CodingKey { case photos }

    /// A set without `photos` is read as none (which photos keys Reporter wrote is not confirmed).
    public init(from decoder: any Decoder) throws {
        photos = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([JSONValue].self, forKey: .photos) ?? []
    }
}

extension ConnectionKind {
    /// Reporter's numeric code: 0 cellular, 1 Wi-Fi, 2 not connected.
    public var reporterCode: Int {
        switch self {
        case .cellular: 0
        case .wifi: 1
        case .none: 2
        }
    }
}
