import Fluent
import Foundation
import MomentaryCore
import SQLKit

extension EnvironmentRisk {
    private struct Row: Decodable {
        let hour: Date
        let weather: String?
        let airQuality: String?
        let pollen: String?

        enum CodingKeys: String, CodingKey {
            case hour, weather, airQuality = "air_quality", pollen
        }
    }

    /// The risk, for the participant's pollen sensitivity, at their latest located answer whose reading is in and less than a day
    /// old: read from what the enrichment job stored, so the status request never waits on a provider.
    static func latest(participantID: UUID, sensitivity: PollenType?, on db: any Database, now: Date) async throws -> EnvironmentRisk? {
        let sql = db.sql
        guard let row = try await sql.raw("""
            SELECT e.hour, e.weather, e.air_quality, e.pollen FROM responses r
            JOIN response_contexts c ON c.response_id = r.id
            JOIN environment_readings e ON e.id = c.environment_reading_id
            WHERE r.participant_id = \(bind: participantID) AND r.submitted_at >= \(bind: now.addingTimeInterval(-86_400))
                AND e.status = \(bind: EnvironmentReadingRecord.Status.ready.rawValue)
            ORDER BY r.submitted_at DESC LIMIT 1
            """).first(decoding: Row.self) else { return nil }
        func decode<T: Decodable>(_ type: T.Type, _ text: String?) -> T? {
            text.flatMap { try? JSONDecoder().decode(T.self, from: Data($0.utf8)) }
        }
        return EnvironmentRisk(
            hour: row.hour, weather: decode(WeatherReading.self, row.weather),
            airQuality: decode(AirQualityReading.self, row.airQuality), pollen: decode(PollenCounts.self, row.pollen),
            sensitivity: sensitivity)
    }
}
