import Fluent

/// `alert_rules`: what a study's researchers want an email about (a participant quiet for days, a
/// response meeting a condition, a day with many failed beeps, a daily digest) and who gets it.
/// `alert_events`: each alert raised, once per rule and subject (the unique key), with whether its
/// email was queued.
struct M056_AddAlerts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("alert_rules")
            .id()
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("days", .int)
            .field("survey_id", .uuid, .references("surveys", "id", onDelete: .cascade))
            .field("condition", .string)
            .field("include_answers", .bool, .required)
            .field("threshold_percent", .int)
            .field("recipients", .string, .required)
            .field("created_at", .datetime, .required)
            .field("created_by", .string)
            .field("checked_through", .datetime)
            .create()
        try await SQLIndex.create("alert_rules_study_id", on: "alert_rules", columns: ["study_id"], in: database)
        try await database.schema("alert_events")
            .id()
            .field("rule_id", .uuid, .required, .references("alert_rules", "id", onDelete: .cascade))
            .field("study_id", .uuid, .required, .references("studies", "id", onDelete: .cascade))
            .field("subject_key", .string, .required)
            .field("participant_id", .uuid)
            .field("summary", .string, .required)
            .field("delivery", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "rule_id", "subject_key")
            .create()
        try await SQLIndex.create("alert_events_study_created", on: "alert_events", columns: ["study_id", "created_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("alert_events_study_created", in: database)
        try await database.schema("alert_events").delete()
        try await SQLIndex.drop("alert_rules_study_id", in: database)
        try await database.schema("alert_rules").delete()
    }
}
