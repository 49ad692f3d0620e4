import Foundation

/// A study's public statistics, as `GET /api/v1/studies/{slug}/statistics` serves them:
/// refreshed on a schedule by the server, never per request, and free of anything that identifies a
/// participant (no ids, no labels, coordinates rounded to about a kilometre, photo times to the hour).
public struct PublicStatistics: Codable, Sendable, Hashable {
    public var study: String
    public var name: String
    public var refreshedAt: Date
    public var participants: Int
    public var responses: Int
    /// The slider summarised; nil when the study's survey has none.
    public var question: FeedbackQuestion?
    public var hedonimeter: Hedonimeter
    /// The past 7 days hour by hour (UTC), oldest first, hours with fewer than `minimumHourResponses` left out.
    public var hours: [Hour]
    public var minimumHourResponses: Int
    /// The most recent public photos from highly rated responses, newest first.
    public var photos: [Photo]

    public init(
        study: String, name: String, refreshedAt: Date, participants: Int, responses: Int, question: FeedbackQuestion?,
        hedonimeter: Hedonimeter, hours: [Hour], minimumHourResponses: Int, photos: [Photo]
    ) {
        self.study = study
        self.name = name
        self.refreshedAt = refreshedAt
        self.participants = participants
        self.responses = responses
        self.question = question
        self.hedonimeter = hedonimeter
        self.hours = hours
        self.minimumHourResponses = minimumHourResponses
        self.photos = photos
    }

    enum CodingKeys: String, CodingKey {
        case study, name, refreshedAt = "refreshed_at", participants, responses, question, hedonimeter, hours
        case minimumHourResponses = "minimum_hour_responses", photos
    }

    /// Mean of the feedback question over all responses and over the latest 25, overall and by
    /// region (a country code, or `unknown`); regions with fewer than `minimumRegionResponses` are left out.
    public struct Hedonimeter: Codable, Sendable, Hashable {
        public var overall: Reading
        public var regions: [Region]
        public var minimumRegionResponses: Int

        public init(overall: Reading, regions: [Region], minimumRegionResponses: Int) {
            self.overall = overall
            self.regions = regions
            self.minimumRegionResponses = minimumRegionResponses
        }

        enum CodingKeys: String, CodingKey {
            case overall, regions, minimumRegionResponses = "minimum_region_responses"
        }
    }

    public struct Reading: Codable, Sendable, Hashable {
        public var responses: Int
        public var mean: Double?
        public var latest25Mean: Double?

        public init(responses: Int, mean: Double?, latest25Mean: Double?) {
            self.responses = responses
            self.mean = mean
            self.latest25Mean = latest25Mean
        }

        enum CodingKeys: String, CodingKey {
            case responses, mean, latest25Mean = "latest_25_mean"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(responses, forKey: .responses)
            try container.encode(mean, forKey: .mean)
            try container.encode(latest25Mean, forKey: .latest25Mean)
        }
    }

    public struct Region: Codable, Sendable, Hashable {
        public var region: String
        public var reading: Reading

        public init(region: String, reading: Reading) {
            self.region = region
            self.reading = reading
        }
    }

    public struct Hour: Codable, Sendable, Hashable {
        public var start: Date
        public var responses: Int
        public var mean: Double

        public init(start: Date, responses: Int, mean: Double) {
            self.start = start
            self.responses = responses
            self.mean = mean
        }
    }

    public struct Photo: Codable, Sendable, Hashable {
        /// Where the photo is served, without its metadata.
        public var url: String
        /// The hour it was taken in (UTC), not the minute.
        public var hour: Date
        public var latitude: Double
        public var longitude: Double
        /// The response's feedback value.
        public var rating: Double

        public init(url: String, hour: Date, latitude: Double, longitude: Double, rating: Double) {
            self.url = url
            self.hour = hour
            self.latitude = latitude
            self.longitude = longitude
            self.rating = rating
        }
    }
}

/// The rules that keep public statistics anonymous, in one place.
public enum PublicStatisticsRules {
    public static let minimumHourResponses = 10
    public static let minimumRegionResponses = 10
    public static let latestCount = 25
    public static let photoCount = 120
    /// A photo is shown when its response rated at least this share of the scale.
    public static let photoRatingShare = 0.7
    public static let hoursShown = 7 * 24

    /// Coordinates to two decimal places: about 1.1 km north–south, less east–west.
    public static func rounded(_ coordinate: Double) -> Double {
        (coordinate * 100).rounded() / 100
    }

    /// The start of the UTC hour `date` falls in.
    public static func hour(of date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }

    /// The lowest feedback value a photo's response may have to be shown.
    public static func photoThreshold(_ question: FeedbackQuestion) -> Double {
        question.min + photoRatingShare * (question.max - question.min)
    }
}
