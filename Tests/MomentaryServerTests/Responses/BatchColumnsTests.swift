import Fluent
import Foundation
@testable import MomentaryServer
import PostgresNIO
import SQLKit
import Testing

/// The writer's batch inserts, column by column: multi-row VALUES on SQLite, one `unnest`
/// statement of fixed text on PostgreSQL, with NULLs where a value is absent.
@Suite("Batch columns")
struct BatchColumnsTests {
    private static func probe(rows: Int) -> InsertColumns {
        InsertColumns(table: "batch_probe", columns: [
            InsertColumn("id", Array(0..<rows)),
            InsertColumn("label", (0..<rows).map { $0.isMultiple(of: 3) ? nil : "label \($0) ü" }),
            InsertColumn("weight", (0..<rows).map { $0.isMultiple(of: 2) ? Double($0) / 4 : nil }),
            InsertColumn("seen_at", (0..<rows).map { $0 == 1 ? nil : Date(timeIntervalSince1970: Double($0 * 60)) }),
        ])
    }

    private struct Row: Decodable, Equatable {
        let id: Int, label: String?, weight: Double?, seen_at: Date?
    }

    private static func expected(rows: Int) -> [Row] {
        (0..<rows).map { row in
            Row(id: row, label: row.isMultiple(of: 3) ? nil : "label \(row) ü", weight: row.isMultiple(of: 2) ? Double(row) / 4 : nil,
                seen_at: row == 1 ? nil : Date(timeIntervalSince1970: Double(row * 60)))
        }
    }

    private enum ProbeTable: PreparedInsert {
        static let statementName = "momentary_test_batch_probe"
        static let postgresText = BatchColumnsTests.probe(rows: 0).postgresText
    }

    @Test("PostgreSQL's statement is one text for any number of rows, an array a column")
    func postgresText() {
        #expect(Self.probe(rows: 0).postgresText == Self.probe(rows: 700).postgresText)
        #expect(Self.probe(rows: 3).postgresText == """
            INSERT INTO batch_probe (id, label, weight, seen_at) SELECT * FROM unnest($1::BIGINT[], $2::TEXT[], $3::DOUBLE PRECISION[], $4::TIMESTAMPTZ[])
            """)
    }

    @Test("on the suite's database every row is stored with its NULLs, whatever the row count",
          arguments: [1, 7, 1_201])
    func storesEveryRow(rows: Int) async throws {
        try await withTestApp { app, _ in
            let sql = app.db.sql
            try await sql.raw("CREATE TABLE batch_probe (id BIGINT PRIMARY KEY, label TEXT, weight DOUBLE PRECISION, seen_at \(unsafeRaw: TestDatabase.isPostgres ? "TIMESTAMPTZ" : "REAL"))").run()
            let columns = Self.probe(rows: rows)
            if let postgres = sql as? any PostgresDatabase {
                _ = try await postgres.rows(of: PostgresPreparedInsert<ProbeTable>(columns: columns))
            } else {
                let statements = columns.valuesStatements(on: sql, rowsPerStatement: 500)
                #expect(statements.count == (rows + 499) / 500)
                for statement in statements { try await sql.execute(sql: statement) { _ in } }
            }
            let stored = try await sql.raw("SELECT id, label, weight, seen_at FROM batch_probe ORDER BY id").all(decoding: Row.self)
            #expect(stored == Self.expected(rows: rows))
        }
    }
}
