import Fluent
import Foundation

/// One grid cell's environment for one UTC hour (migration M032): pending until fetched, then
/// ready with the provider's values as JSON, or failed/unavailable after giving up.
final class EnvironmentReadingRecord: Model, @unchecked Sendable {
    static let schema = "environment_readings"

    enum Status: String, Codable, Sendable {
        /// Not fetched yet, or fetching failed and will be tried again at `nextAttemptAt`.
        case pending
        case ready
        /// The provider refused the request for this place and hour; not asked again.
        case unavailable
        /// Fetching failed `EnvironmentEnrichment.maximumAttempts` times.
        case failed
    }

    @ID(key: .id) var id: UUID?
    @Field(key: "cell_row") var cellRow: Int
    @Field(key: "cell_column") var cellColumn: Int
    @Field(key: "hour") var hour: Date
    @Field(key: "latitude") var latitude: Double
    @Field(key: "longitude") var longitude: Double
    @Field(key: "status") var status: Status
    @Field(key: "attempts") var attempts: Int
    @OptionalField(key: "next_attempt_at") var nextAttemptAt: Date?
    @OptionalField(key: "last_error") var lastError: String?
    @OptionalField(key: "source") var source: String?
    @OptionalField(key: "weather") var weather: String?
    @OptionalField(key: "air_quality") var airQuality: String?
    @OptionalField(key: "pollen") var pollen: String?
    @OptionalField(key: "fetched_at") var fetchedAt: Date?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
