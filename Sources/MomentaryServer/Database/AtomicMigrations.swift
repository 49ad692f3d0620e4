import Fluent
import SQLKit
import Vapor

extension Application {
    /// Applies the pending migrations in order, each in one transaction together with its row in
    /// `_fluent_migrations` (the same log Fluent keeps), so a crash at any point leaves every
    /// migration either wholly applied and recorded or not at all: the next start simply goes on.
    /// (Fluent's own `autoMigrate` commits a migration and its record separately; a crash between
    /// them left a database whose next start failed with "table already exists".) Both SQLite and
    /// PostgreSQL run schema changes inside transactions.
    /// Returns the names applied; logs one line for the whole run.
    @discardableResult
    public func migrateAtomically() async throws -> [String] {
        try await MigrationLog.migration.prepare(on: db).get()
        let recorded = try await MigrationLog.query(on: db).all()
        let applied = Set(recorded.map(\.name))
        let batch = (recorded.map(\.batch).max() ?? 0) + 1
        var done: [String] = []
        for migration in Migrations.all where !applied.contains(migration.name) {
            logger.debug("Applying migration \(migration.name)")
            try await db.transaction { transaction in
                try await migration.prepare(on: transaction).get()
                try await MigrationLog(name: migration.name, batch: batch).create(on: transaction)
            }
            done.append(migration.name)
        }
        if !done.isEmpty {
            logger.info("Applied \(done.count) database migration(s), each atomically with its record.")
        }
        return done
    }

    /// Runs `body` holding this schema's migration lock: on PostgreSQL a session advisory lock,
    /// so two `migrate` runs never create tables at once. That includes a run killed mid-statement,
    /// whose server process goes on until the statement ends: a run started meanwhile failed on
    /// `CREATE TABLE IF NOT EXISTS "_fluent_migrations"` ("duplicate key … pg_type_typname_nsp_index").
    /// The lock ends with its session, so a killed run never leaves it held. SQLite needs none:
    /// its schema changes wait for the file's write lock.
    public func withMigrationLock<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard db.sql.dialect.name == "postgresql" else { return try await body() }
        // The lock's own connection, held throughout; `body` works through the others.
        return try await db.withConnection { connection in
            let sql = connection.sql
            let key: SQLQueryString = "hashtext('momentary-migrate:' || current_schema())"
            try await sql.raw("SELECT pg_advisory_lock(\(key))").run()
            do {
                let result = try await body()
                try await sql.raw("SELECT pg_advisory_unlock(\(key))").run()
                return result
            } catch {
                try? await sql.raw("SELECT pg_advisory_unlock(\(key))").run()
                throw error
            }
        }
    }
}
