import Fluent

/// Named dates per participant (Beiwe's interventions), from which fixed rules count days:
/// `studies.participant_date_names` (a JSON list of the names; NULL for none) and
/// `participants.dates` (a JSON object of names and dates; NULL for none set).
struct M050_AddParticipantDates: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies").field("participant_date_names", .string).update()
        try await database.schema("participants").field("dates", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("participants").deleteField("dates").update()
        try await database.schema("studies").deleteField("participant_date_names").update()
    }
}
