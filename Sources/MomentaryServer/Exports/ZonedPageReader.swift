import Foundation
import SQLKit

/// A row of an export table read by keyset over (time, id), its times shown in its participant's
/// zone: beeps and messages.
protocol ZonedExportRecord: Decodable {
    /// The row's place in the keyset order.
    var keysetID: UUID { get }
    var keysetTime: Date { get }
    /// The zone named by the row (or its participant), resolved by `ParticipantZones`.
    var participantTimezone: String { get }
    var timeZone: TimeZone { get set }
}

/// Reads an export table a page at a time: each page starts after the last row of the one before
/// (`KeysetPage`), so a late page costs what an early one does, and memory stays flat.
struct ZonedPageReader<Record: ZonedExportRecord> {
    typealias Query = @Sendable (_ after: (id: UUID, time: Date)?, _ pageSize: Int) -> SQLQueryString

    private let sql: any SQLDatabase
    private let pageSize: Int
    private let query: Query
    private var zones: ParticipantZones
    private var cursor: (id: UUID, time: Date)?
    private var exhausted = false

    init(studyID: UUID, pageSize: Int, sql: any SQLDatabase, query: @escaping Query) async throws {
        self.sql = sql
        self.pageSize = max(1, pageSize)
        self.query = query
        self.zones = try await ParticipantZones(studyID: studyID, sql: sql)
    }

    mutating func nextPage() async throws -> [Record]? {
        guard !exhausted else { return nil }
        let rows = try await sql.raw(query(cursor, pageSize)).all(decoding: Record.self)
        if rows.count < pageSize { exhausted = true }
        guard let last = rows.last else { return nil }
        cursor = (last.keysetID, last.keysetTime)
        return rows.map { row in
            var row = row
            row.timeZone = zones.zone(named: row.participantTimezone)
            return row
        }
    }
}
