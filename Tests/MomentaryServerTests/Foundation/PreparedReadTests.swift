import Fluent
import Foundation
@testable import MomentaryServer
import PostgresNIO
import SQLKit
import Testing
import Vapor

/// The reads every participant request makes, written once as SQL and kept prepared on
/// PostgreSQL: each use reads its own key's rows, on either database, and PostgreSQL keeps one
/// statement a connection instead of planning the text afresh at every use.
@Suite("Prepared reads")
struct PreparedReadTests {
    /// A read whose key appears twice among constants of three kinds, as the authenticator's does.
    private struct LabelRead: PreparedRead {
        static let name = "momentary_test_label"
        static let text = PreparedReadText(query)
        let key: UUID

        static func query(_ key: UUID) -> SQLQueryString {
            """
            SELECT label FROM prepared_read_probe
            WHERE id = \(bind: key) AND kind = \(bind: "probe") AND visible = \(bind: true)
              AND (SELECT COUNT(*) FROM prepared_read_probe AS other WHERE other.id = \(bind: key)) = 1
            """
        }
    }

    private struct UnencodableRead: PreparedRead {
        struct Unencodable: Encodable, Sendable { let value = 1 }
        static let name = "momentary_test_unencodable"
        static let text = PreparedReadText { "SELECT 1 WHERE \(bind: Unencodable()) IS NOT NULL AND \(bind: $0) IS NOT NULL" }
        let key: UUID
        static func query(_ key: UUID) -> SQLQueryString { "SELECT 1" }
    }

    @Test("PostgreSQL's text is written once, with one placeholder a bind, and each use binds its own key")
    func textAndBindings() throws {
        #expect(LabelRead.sql == """
            SELECT label FROM prepared_read_probe
            WHERE id = $1 AND kind = $2 AND visible = $3
              AND (SELECT COUNT(*) FROM prepared_read_probe AS other WHERE other.id = $4) = 1
            """)
        #expect(try LabelRead(key: UUID()).makeBindings().count == 4)
    }

    @Test("a constant PostgresNIO cannot encode is an error at use, not a wrong statement")
    func unencodableConstant() {
        #expect(throws: Abort.self) { try UnencodableRead(key: UUID()).makeBindings() }
    }

    @Test("each use reads its own key's rows, on the database the suite runs on")
    func readsItsOwnKey() async throws {
        try await withTestApp { app, _ in
            let (first, second) = try await makeProbes(on: app.db)
            let ingest = app.responseIngest
            for key in [first, second, first, second] {
                let labels = try await ingest.read(LabelRead(key: key), on: app.db).map { try $0.decode(column: "label", as: String.self) }
                #expect(labels == [key == first ? "first" : "second"])
            }
            #expect(try await ingest.read(LabelRead(key: UUID()), on: app.db).isEmpty)
        }
    }

    @Test("PostgreSQL keeps the statement prepared on the connection and reuses it",
          .enabled(if: TestDatabase.isPostgres, "prepared statements are kept only on PostgreSQL"))
    func keptOnTheConnection() async throws {
        try await withTestApp { app, _ in
            let (first, second) = try await makeProbes(on: app.db)
            let ingest = app.responseIngest
            let uses = try await app.db.withConnection { db in
                for key in [first, second, first] { _ = try await ingest.read(LabelRead(key: key), on: db) }
                return try await (db as! any SQLDatabase).raw("""
                    SELECT generic_plans + custom_plans AS uses FROM pg_prepared_statements WHERE name = \(bind: LabelRead.name)
                    """).all().map { try $0.decode(column: "uses", as: Int.self) }
            }
            #expect(uses == [3])
        }
    }

    private func makeProbes(on db: any Database) async throws -> (UUID, UUID) {
        let sql = db as! any SQLDatabase
        try await sql.raw("CREATE TABLE prepared_read_probe (id UUID PRIMARY KEY, kind TEXT NOT NULL, visible BOOLEAN NOT NULL, label TEXT NOT NULL)").run()
        let (first, second) = (UUID(), UUID())
        for (id, label) in [(first, "first"), (second, "second")] {
            try await sql.raw("INSERT INTO prepared_read_probe VALUES (\(bind: id), \(bind: "probe"), \(bind: true), \(bind: label))").run()
        }
        return (first, second)
    }
}
