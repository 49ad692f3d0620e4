import Fluent

/// The researcher website's sessions, kept in the database so sign-ins survive a restart.
/// Delegates to Fluent's own session table so the `fluent` session driver finds what it expects.
struct M013_CreateWebSessions: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await SessionRecord.migration.prepare(on: database).get()
    }

    func revert(on database: any Database) async throws {
        try await SessionRecord.migration.revert(on: database).get()
    }
}
