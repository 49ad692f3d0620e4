import Fluent

/// `studies.archived_at`: an archived study takes no new participants and sends no beeps, while
/// its data stays for the exports (`StudyLifecycle`).
struct M045_AddStudyArchive: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("studies").field("archived_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("studies").deleteField("archived_at").update()
    }
}
