import Fluent

/// `access_tokens`: researchers' personal access tokens for the research API, stored as hashes of
/// their secrets, each named, expiring, optionally limited to studies and to reading.
struct M053_AddAccessTokens: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("access_tokens")
            .id()
            .field("researcher_id", .uuid, .required, .references("researchers", "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("token_hash", .string, .required)
            .field("prefix", .string, .required)
            .field("study_ids", .string)
            .field("read_only", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("last_used_at", .datetime)
            .field("revoked_at", .datetime)
            .unique(on: "token_hash")
            .create()
        try await SQLIndex.create("access_tokens_researcher_id", on: "access_tokens", columns: ["researcher_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("access_tokens_researcher_id", in: database)
        try await database.schema("access_tokens").delete()
    }
}
