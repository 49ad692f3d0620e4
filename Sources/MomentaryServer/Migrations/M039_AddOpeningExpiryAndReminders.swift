import Fluent

/// A beep's life after it is sent: `opened_at` (the participant opened its survey),
/// `answer_window_minutes` (a fixed schedule's own window, which wins over the study's), the index
/// the expiry sweep reads (sent beeps by deadline), and reminders.
///
/// A reminder is a row of its own, planned when its beep is recorded sent and claimed by a
/// dispatcher before it is pushed, as beeps are: (beep, sequence) is unique, so it is planned
/// once, and a claimed row is never taken by a second worker. `delivery_attempts.reminder` is the
/// sequence of the reminder an attempt pushed (NULL for the beep itself).
struct M039_AddOpeningExpiryAndReminders: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("beeps").field("opened_at", .datetime).update()
        try await database.schema("beeps").field("answer_window_minutes", .int).update()
        try await SQLIndex.create("beeps_status_expires_at", on: "beeps", columns: ["status", "expires_at"], in: database)
        try await database.schema("reminders")
            .id()
            .field("beep_id", .uuid, .required, .references("beeps", "id", onDelete: .cascade))
            .field("participant_id", .uuid, .required, .references("participants", "id", onDelete: .cascade))
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("sequence", .int, .required)
            .field("due_at", .datetime, .required)
            .field("status", .string, .required)
            .field("claimed_at", .datetime)
            .field("claimed_by", .string)
            .field("sent_at", .datetime)
            .field("outcome", .string)
            .field("reason", .string)
            .unique(on: "beep_id", "sequence")
            .create()
        try await SQLIndex.create("reminders_status_due_at", on: "reminders", columns: ["status", "due_at"], in: database)
        try await database.schema("delivery_attempts").field("reminder", .int).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("delivery_attempts").deleteField("reminder").update()
        try await SQLIndex.drop("reminders_status_due_at", in: database)
        try await database.schema("reminders").delete()
        try await SQLIndex.drop("beeps_status_expires_at", in: database)
        try await database.schema("beeps").deleteField("answer_window_minutes").update()
        try await database.schema("beeps").deleteField("opened_at").update()
    }
}
