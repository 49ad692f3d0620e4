import Fluent

/// `responses.survey_timings`: the Beiwe timing events a participant app sends with a response
/// (JSON text), stored in the response's own transaction so they arrive exactly when it does.
struct M016_AddResponseSurveyTimings: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("responses").field("survey_timings", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("responses").deleteField("survey_timings").update()
    }
}
