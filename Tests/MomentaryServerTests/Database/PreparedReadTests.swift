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

        static func query(_ key: any SQLExpression) -> SQLQueryString {
            """
            SELECT label FROM prepared_read_probe
            WHERE id = \(key) AND kind = \(bind: "probe") AND visible = \(bind: true)
              AND (SELECT COUNT(*) FROM prepared_read_probe AS other WHERE other.id = \(key)) = 1
            """
        }
    }

    private struct UnencodableRead: PreparedRead {
        struct Unencodable: Encodable, Sendable { let value = 1 }
        static let name = "momentary_test_unencodable"
        static let text = PreparedReadText(query)
        let key: UUID
        static func query(_ key: any SQLExpression) -> SQLQueryString { "SELECT 1 WHERE \(bind: Unencodable()) IS NOT NULL AND \(key) IS NOT NULL" }
    }

    @Test("PostgreSQL's text reads many keys, each as the query of one key, with one bind for the keys")
    func textAndBindings() throws {
        #expect(LabelRead.text.sql == """
            SELECT read_keys.id AS "momentary_read_key", found.* FROM unnest($1::UUID[]) AS read_keys(id)
            CROSS JOIN LATERAL (SELECT label FROM prepared_read_probe
            WHERE id = "read_keys"."id" AND kind = $2 AND visible = $3
              AND (SELECT COUNT(*) FROM prepared_read_probe AS other WHERE other.id = "read_keys"."id") = 1) AS found
            """)
        #expect(try PreparedReadBatch<LabelRead>(keys: [UUID(), UUID()]).makeBindings().count == 3)
    }

    @Test("a constant PostgresNIO cannot encode is an error at use, not a wrong statement")
    func unencodableConstant() {
        #expect(throws: Abort.self) { try PreparedReadBatch<UnencodableRead>(keys: [UUID()]).makeBindings() }
    }

    @Test("each use reads its own key's rows, on the database the suite runs on")
    func readsItsOwnKey() async throws {
        try await withTestApp { app, _ in
            let (first, second) = try await makeProbes(on: app.db)
            let ingest = app.ingestResources
            for key in [first, second, first, second] {
                let labels = try await ingest.read(LabelRead(key: key), on: app.db).map { try $0.decode(column: "label", as: String.self) }
                #expect(labels == [key == first ? "first" : "second"])
            }
            #expect(try await ingest.read(LabelRead(key: UUID()), on: app.db).isEmpty)
        }
    }

    @Test("reads made together each get their own key's rows, known and unknown keys alike")
    func concurrentReads() async throws {
        try await withTestApp { app, _ in
            let (first, second) = try await makeProbes(on: app.db)
            let ingest = app.ingestResources
            let keys = (0..<60).map { [first, second, UUID()][$0 % 3] }
            let labels = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
                for (index, key) in keys.enumerated() {
                    group.addTask {
                        (index, try await ingest.read(LabelRead(key: key), on: app.db).map { try $0.decode(column: "label", as: String.self) })
                    }
                }
                return try await group.reduce(into: [Int: [String]]()) { $0[$1.0] = $1.1 }
            }
            for (index, key) in keys.enumerated() {
                #expect(labels[index] == (key == first ? ["first"] : key == second ? ["second"] : []), "read \(index)")
            }
        }
    }

    @Test("PostgreSQL keeps the statement prepared on the connection and reuses it",
          .enabled(if: TestDatabase.isPostgres, "prepared statements are kept only on PostgreSQL"))
    func keptOnTheConnection() async throws {
        try await withTestApp { app, _ in
            let (first, second) = try await makeProbes(on: app.db)
            let ingest = app.ingestResources
            let uses = try await app.db.withConnection { db in
                for key in [first, second, first] { _ = try await ingest.read(LabelRead(key: key), on: db) }
                return try await db.sql.raw("""
                    SELECT generic_plans + custom_plans AS uses FROM pg_prepared_statements WHERE name = \(bind: LabelRead.name)
                    """).all().map { try $0.decode(column: "uses", as: Int.self) }
            }
            #expect(uses == [3])
        }
    }

    private func makeProbes(on db: any Database) async throws -> (UUID, UUID) {
        let sql = db.sql
        try await sql.raw("CREATE TABLE prepared_read_probe (id UUID PRIMARY KEY, kind TEXT NOT NULL, visible BOOLEAN NOT NULL, label TEXT NOT NULL)").run()
        let (first, second) = (UUID(), UUID())
        for (id, label) in [(first, "first"), (second, "second")] {
            try await sql.raw("INSERT INTO prepared_read_probe VALUES (\(bind: id), \(bind: "probe"), \(bind: true), \(bind: label))").run()
        }
        return (first, second)
    }
}
