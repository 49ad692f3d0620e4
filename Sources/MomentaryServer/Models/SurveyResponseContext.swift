import Fluent
import Foundation

final class SurveyResponseContext: Model, @unchecked Sendable {
    static let schema = "response_contexts"

    @ID(key: .id) var id: UUID?
    @Parent(key: "response_id") var response: SurveyResponse
    @OptionalField(key: "latitude") var latitude: Double?
    @OptionalField(key: "longitude") var longitude: Double?
    @OptionalField(key: "altitude") var altitude: Double?
    @OptionalField(key: "horizontal_accuracy") var horizontalAccuracy: Double?
    @OptionalField(key: "vertical_accuracy") var verticalAccuracy: Double?
    @OptionalField(key: "located_at") var locatedAt: Date?
    @OptionalField(key: "place_text") var placeText: String?
    @OptionalField(key: "country") var country: String?
    @OptionalField(key: "sound_average_db") var soundAverageDB: Double?
    @OptionalField(key: "sound_peak_db") var soundPeakDB: Double?
    @OptionalField(key: "battery") var battery: Double?
    @OptionalField(key: "connection") var connection: String?
    @OptionalField(key: "steps") var steps: Int?
    @OptionalField(key: "impetus") var impetus: String?
    /// Environment attached by the server, as JSON text.
    @OptionalField(key: "weather") var weather: String?
    @OptionalField(key: "air_quality") var airQuality: String?
    @OptionalField(key: "pollen") var pollen: String?

    init() {}
}
