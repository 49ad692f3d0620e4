import Fluent

/// `mail_outbox`: every email the server sends is first a row here, claimed by one worker before
/// it is attempted and its outcome recorded (`MailOutbox`), so a crash loses none and a message
/// the mail server may have accepted is never sent again. `password_resets`: single-use,
/// expiring reset links, stored as hashes of their secrets.
struct M052_AddMailOutboxAndPasswordResets: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("mail_outbox")
            .id()
            .field("purpose", .string, .required)
            .field("recipient", .string, .required)
            .field("subject", .string, .required)
            .field("body", .string, .required)
            .field("message_id", .string, .required)
            .field("status", .string, .required)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .datetime, .required)
            .field("claimed_at", .datetime)
            .field("claimed_by", .string)
            .field("sent_at", .datetime)
            .field("last_error", .string)
            .field("created_at", .datetime, .required)
            .create()
        try await SQLIndex.create("mail_outbox_status_next_attempt_at", on: "mail_outbox", columns: ["status", "next_attempt_at"], in: database)
        try await database.schema("password_resets")
            .id()
            .field("researcher_id", .uuid, .required, .references("researchers", "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("used_at", .datetime)
            .unique(on: "token_hash")
            .create()
        try await SQLIndex.create("password_resets_researcher_id", on: "password_resets", columns: ["researcher_id"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("password_resets_researcher_id", in: database)
        try await database.schema("password_resets").delete()
        try await SQLIndex.drop("mail_outbox_status_next_attempt_at", in: database)
        try await database.schema("mail_outbox").delete()
    }
}
