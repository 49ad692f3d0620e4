import Fluent

/// `responses.kept_as_is`: what an imported file said of a response that Momentary has no column
/// for, as JSON text (`ReporterKept` for Reporter reports), so exporting it again gives the file
/// back whole. NULL for responses given in Momentary.
struct M048_AddResponseKeptAsIs: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("responses").field("kept_as_is", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("responses").deleteField("kept_as_is").update()
    }
}
