import Fluent

/// The latest public statistics of each study that shows them (`PublicStatistics` as JSON with its
/// ETag), written by the server's background refresh and read by every request, so a busy public
/// page costs one indexed read however many responses the study has.
struct M021_CreatePublicStatistics: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("public_statistics")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("body", .string, .required)
            .field("etag", .string, .required)
            .field("refreshed_at", .datetime, .required)
            .unique(on: "study_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("public_statistics").delete()
    }
}
