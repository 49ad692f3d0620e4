import Fluent

/// Failed sign-ins counted per throttle key (`account:<email>`, `address:<client address>`) for
/// `SignInThrottle`, so the back-off holds across restarts and across the server's processes.
struct M023_CreateSignInFailures: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("sign_in_failures")
            .id()
            .field("key", .string, .required)
            .field("failures", .int, .required)
            .field("last_failure_at", .datetime, .required)
            .field("blocked_until", .datetime)
            .unique(on: "key")
            .create()
        try await SQLIndex.create("sign_in_failures_last_failure_at", on: "sign_in_failures", columns: ["last_failure_at"], in: database)
    }

    func revert(on database: any Database) async throws {
        try await database.schema("sign_in_failures").delete()
    }
}
