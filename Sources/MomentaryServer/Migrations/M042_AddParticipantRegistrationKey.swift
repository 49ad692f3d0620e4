import Fluent

/// `participants.registration_key`: the idempotency key the app sent with its registration, unique
/// within a study, so a registration retried after a lost reply finds the participant it made.
struct M042_AddParticipantRegistrationKey: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("participants").field("registration_key", .string).update()
        try await SQLIndex.create(
            "participants_study_registration_key", on: "participants", columns: ["study_id", "registration_key"], unique: true,
            in: database)
    }

    func revert(on database: any Database) async throws {
        try await SQLIndex.drop("participants_study_registration_key", in: database)
        try await database.schema("participants").deleteField("registration_key").update()
    }
}
