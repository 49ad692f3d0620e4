import Fluent

/// What a study of today sets beyond Mappiness' protocol: who chooses the hours
/// (`hours_policy`, with the bounds and the shortest window for `bounded`), stratified sampling and
/// measurement bursts (`sampling`, `sampling_days` as JSON), the answer window and the time to
/// finish a started survey, and reminders (offsets as a JSON list, their own alert text).
/// Existing studies keep today's behaviour: hours chosen by participants, uniform sampling every
/// day, answerable until the next beep, 30 minutes to finish, no reminders.
struct M038_AddStudyPromptSettings: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies").field("hours_policy", .string, .required, .sql(.default("participant"))).update()
        for field in ["earliest_start_minutes", "latest_end_minutes", "minimum_window_minutes"] {
            try await database.schema("studies").field(FieldKey(stringLiteral: field), .int).update()
        }
        try await database.schema("studies").field("sampling", .string, .required, .sql(.default("uniform"))).update()
        try await database.schema("studies").field("sampling_days", .string).update()
        try await database.schema("studies").field("answer_window_minutes", .int).update()
        try await database.schema("studies").field("completion_minutes", .int, .required, .sql(.default(30))).update()
        try await database.schema("studies").field("reminders_after_minutes", .string, .required, .sql(.default("[]"))).update()
        try await database.schema("studies").field("reminder_alert_text", .string).update()
    }

    func revert(on database: any Database) async throws {
        for field in ["reminder_alert_text", "reminders_after_minutes", "completion_minutes", "answer_window_minutes", "sampling_days", "sampling",
                      "minimum_window_minutes", "latest_end_minutes", "earliest_start_minutes", "hours_policy"] {
            try await database.schema("studies").deleteField(FieldKey(stringLiteral: field)).update()
        }
    }
}
