import Fluent
import SQLKit

/// `environment_readings`: the weather, air quality and pollen of one grid cell (about 11 km) and
/// one UTC hour, fetched once and shared by every response given there and then; also the work
/// queue of the enrichment job (status, attempts and when to try next after a provider failure).
struct M032_CreateEnvironmentReadings: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("environment_readings")
            .id()
            .field("cell_row", .int, .required)
            .field("cell_column", .int, .required)
            .field("hour", .datetime, .required)
            .field("latitude", .double, .required)
            .field("longitude", .double, .required)
            .field("status", .string, .required)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .datetime)
            .field("last_error", .string)
            .field("source", .string)
            .field("weather", .string)
            .field("air_quality", .string)
            .field("pollen", .string)
            .field("fetched_at", .datetime)
            .field("created_at", .datetime, .required)
            .unique(on: "cell_row", "cell_column", "hour")
            .create()
        // The job's question: which pending readings are due, oldest first.
        try await SQLIndex.create(
            "environment_readings_due", on: "environment_readings", columns: ["status", "next_attempt_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("environment_readings_due", in: database)
        try await database.schema("environment_readings").delete()
    }
}
