import Fluent

/// `studies.expected_streams`: the passive streams a study expects from participants' phones (a
/// JSON list of stream names; NULL for none named), so the study says which it collects.
struct M051_AddExpectedStreams: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies").field("expected_streams", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("studies").deleteField("expected_streams").update()
    }
}
