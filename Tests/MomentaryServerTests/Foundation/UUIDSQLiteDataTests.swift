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
            let sql = try #require(app.db as? any SQLDatabase)
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
            let sql = try #require(app.db as? any SQLDatabase)
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
}
