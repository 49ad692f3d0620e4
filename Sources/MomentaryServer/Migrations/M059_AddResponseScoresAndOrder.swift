import Fluent

/// `responses.scores`: the survey's scores (`scores`) computed when the response was stored,
/// as JSON text (`{"pa_mean": 3.5, "na_sum": null}`; nil for surveys without scores); and
/// `responses.presented_order`: the question ids in the order the app showed them, as a JSON list
/// (nil when the app did not say, as before `randomize_groups`). Both are written in the
/// response's own insert, so they exist exactly when it does.
struct M059_AddResponseScoresAndOrder: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("responses").field("scores", .string).update()
        try await database.schema("responses").field("presented_order", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("responses").deleteField("presented_order").update()
        try await database.schema("responses").deleteField("scores").update()
    }
}
