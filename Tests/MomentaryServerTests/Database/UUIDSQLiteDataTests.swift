import Fluent
import Foundation
@testable import MomentaryServer
import SQLKit
import Testing

/// UUIDs cross into SQLite directly (`UUID+SQLiteData.swift`) as the same upper-case text
/// SQLiteKit's generic encoding stored before, so rows written either way compare equal.
@Suite("UUIDs in SQLite")
struct UUIDSQLiteDataTests {
    @Test("a bound UUID is stored as its upper-case text and read back as the same UUID")
    func roundTrip() async throws {
        try await withSQLiteTestApp { app in
            let sql = app.db.sql
            let id = try #require(UUID(uuidString: "0192f3a4-5b6c-7d8e-9f01-23456789abcd"))
            struct Row: Decodable { let value: UUID; let kind: String; let text: String }
            let row = try #require(try await sql.raw("SELECT \(bind: id) AS value, typeof(\(bind: id)) AS kind, \(bind: id) AS text")
                .first(decoding: Row.self))
            #expect(row.value == id)
            #expect(row.kind == "text")
            #expect(row.text == "0192F3A4-5B6C-7D8E-9F01-23456789ABCD")
        }
    }

    @Test("text that is not a UUID, or no value, is refused rather than read as some UUID")
    func refusesOtherValues() async throws {
        try await withSQLiteTestApp { app in
            let sql = app.db.sql
            struct Row: Decodable { let value: UUID }
            await #expect(throws: (any Error).self) {
                _ = try await sql.raw("SELECT 'not-a-uuid' AS value").first(decoding: Row.self)
            }
            await #expect(throws: (any Error).self) {
                _ = try await sql.raw("SELECT 42 AS value").first(decoding: Row.self)
            }
            struct Optional: Decodable { let value: UUID? }
            let none = try #require(try await sql.raw("SELECT NULL AS value").first(decoding: Optional.self))
            #expect(none.value == nil)
        }
    }

    @Test("its text is Foundation's uuidString, and reads back in either case")
    func textMatchesFoundation() {
        for _ in 0..<1_000 {
            let id = UUID()
            #expect(id.upperHexText == id.uuidString)
            #expect(UUID(hexText: id.uuidString) == id)
            #expect(UUID(hexText: id.uuidString.lowercased()) == id)
        }
        let edges = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        for id in edges {
            #expect(id.upperHexText == id.uuidString)
            #expect(UUID(hexText: id.uuidString) == id)
        }
    }

    @Test("text not laid out as a UUID is refused", arguments: [
        "", "0192F3A4-5B6C-7D8E-9F01-23456789ABC", "0192F3A4-5B6C-7D8E-9F01-23456789ABCDE",
        "0192F3A4-5B6C-7D8E-9F01-23456789ABCG", "0192F3A45-B6C-7D8E-9F01-23456789ABCD",
        "0192F3A4_5B6C_7D8E_9F01_23456789ABCD", "{0192F3A4-5B6C-7D8E-9F01-23456789ABC}",
        " 192F3A4-5B6C-7D8E-9F01-23456789ABCD", "0192F3A4-5B6C-7D8E-9F01-23456789ABC\u{E9}",
        "0192F3A4-+B6C-7D8E-9F01-23456789ABCD",
    ])
    func refusesMalformedText(_ text: String) {
        #expect(UUID(hexText: text) == nil)
    }
}
