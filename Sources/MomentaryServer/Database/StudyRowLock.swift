import Fluent
import Foundation
import SQLKit
import Vapor

extension Database {
    /// Takes the write lock at the start of a transaction by a write that changes nothing: on
    /// SQLite the database's (a transaction that has read cannot become a writer once another
    /// connection has committed: SQLite answers "database is locked" at once, with no waiting, so
    /// read-then-write transactions such as a registration failed with 500 while the signaller
    /// wrote at start-up), on PostgreSQL the study's row, so that rules about a study's rows are
    /// checked by one transaction at a time.
    func lockStudyForWriting(_ studyID: UUID) async throws {
        try await sql.update(Study.schema).set(SQLIdentifier("slug"), to: SQLIdentifier("slug")).where("id", .equal, studyID).run()
    }

    /// Takes SQLite's write lock at the start of a transaction that reads before it writes, for
    /// the reason above, by a write that matches no row; on PostgreSQL it locks nothing.
    func lockForWriting() async throws {
        try await sql.raw("UPDATE studies SET slug = slug WHERE 1 = 0").run()
    }
}
