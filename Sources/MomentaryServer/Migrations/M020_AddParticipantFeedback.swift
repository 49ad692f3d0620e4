import Fluent

/// What participants get back, switchable per study: feedback charts and the personal
/// data download are on by default, public statistics off. `feedback_question_id` names the slider
/// the charts summarise (empty: the survey's first slider). Download links are found by the hash
/// of their secret, so that column gets a unique index.
struct M020_AddParticipantFeedback: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies")
            .field("feedback_enabled", .bool, .required, .sql(.default(true)))
            .update()
        try await database.schema("studies")
            .field("data_download_enabled", .bool, .required, .sql(.default(true)))
            .update()
        try await database.schema("studies")
            .field("public_statistics_enabled", .bool, .required, .sql(.default(false)))
            .update()
        try await database.schema("studies").field("feedback_question_id", .string).update()
        try await SQLIndex.create(
            "participants_download_token_hash", on: "participants", columns: ["download_token_hash"], unique: true, in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("participants_download_token_hash", in: database)
        for field in ["feedback_question_id", "public_statistics_enabled", "data_download_enabled", "feedback_enabled"] {
            try await database.schema("studies").deleteField(FieldKey(stringLiteral: field)).update()
        }
    }
}
