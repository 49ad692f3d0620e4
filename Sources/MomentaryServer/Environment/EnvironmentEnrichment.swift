import Fluent
import Foundation
import Logging
import MomentaryCore
import SQLKit

/// Fills the weather, air quality and pollen of responses with a location, off the request path:
/// `serve` runs `run` every `MOMENTARY_ENVIRONMENT_SECONDS` on the background connections, and
/// `momentary environment backfill` runs it for one study until nothing is due. Each response is
/// assigned once to the reading of its grid cell and UTC hour (`EnvironmentGridCell`); each reading
/// is fetched once and copied to all its responses, where exports already read it
/// (`response_contexts.weather`, `air_quality`, `pollen`, as JSON text).
enum EnvironmentEnrichment {
    struct Summary: Sendable, Equatable {
        /// Responses newly assigned to a reading.
        var assigned = 0
        /// Readings fetched and stored, and readings whose fetch failed this time.
        var fetched = 0
        var failed = 0
        /// Responses that received environment data.
        var filled = 0
    }

    static let assignBatchSize = 500
    /// Attempts before a reading is given up (about a day and a half of backoff); a backfill tries again.
    static let maximumAttempts = 10

    /// Seconds to wait after the `attempt`th failure: a minute, doubling, at most six hours.
    static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        min(6 * 3_600, 60 * pow(2, Double(max(0, attempt - 1))))
    }

    /// One pass: assigns new located responses (of `study`, or all) to cell-hour readings, then
    /// fetches up to `fetchLimit` due readings.
    @discardableResult
    static func run(
        on db: any Database, provider: any EnvironmentProvider, now: Date, logger: Logger,
        study: UUID? = nil, fetchLimit: Int = 100
    ) async throws -> Summary {
        var summary = Summary()
        while true {
            let (assigned, filled) = try await assignBatch(on: db, study: study, now: now)
            summary.assigned += assigned
            summary.filled += filled
            if assigned < assignBatchSize || Task.isCancelled { break }
        }
        let due = try await dueReadings(on: db, study: study, now: now, limit: fetchLimit)
        for reading in due where !Task.isCancelled {
            if let filled = try await fetch(reading, on: db, provider: provider, now: now, logger: logger) {
                summary.fetched += 1
                summary.filled += filled
            } else {
                summary.failed += 1
            }
        }
        return summary
    }

    /// The periodic job of `serve`.
    static func job(provider: any EnvironmentProvider, seconds: Int) -> PeriodicJob {
        PeriodicJob(component: "environment", every: .seconds(seconds)) { db, now, logger in
            do {
                try await run(on: db, provider: provider, now: now, logger: logger)
            } catch {
                logger.warning("Filling responses' environment failed; the next run tries again: \(String(describing: error))")
            }
        }
    }

    // MARK: Assigning responses to readings

    private struct PendingContext: Decodable {
        let id: UUID
        let latitude: Double
        let longitude: Double
        let submittedAt: Date

        enum CodingKeys: String, CodingKey {
            case id, latitude, longitude, submittedAt = "submitted_at"
        }
    }

    private struct CellHour: Hashable {
        let cell: EnvironmentGridCell
        let hour: Date
    }

    /// Assigns up to `assignBatchSize` unassigned located responses; returns how many, and how
    /// many of them got data at once from a reading fetched before.
    private static func assignBatch(on db: any Database, study: UUID?, now: Date) async throws -> (Int, Int) {
        let sql = db.sql
        let studyCondition: SQLQueryString = study.map { " AND r.study_id = \(bind: $0)" } ?? ""
        // Places outside the globe never get a cell; they are left out here rather than looked at forever.
        let pending = try await sql.raw("""
            SELECT c.id, c.latitude, c.longitude, r.submitted_at FROM response_contexts c
            JOIN responses r ON r.id = c.response_id
            WHERE c.environment_reading_id IS NULL AND c.latitude IS NOT NULL AND c.longitude IS NOT NULL
                AND c.weather IS NULL AND c.air_quality IS NULL AND c.pollen IS NULL
                AND c.latitude BETWEEN -90 AND 90 AND c.longitude BETWEEN -180 AND 180\(studyCondition)
            LIMIT \(literal: assignBatchSize)
            """).all(decoding: PendingContext.self)
        var groups: [CellHour: [UUID]] = [:]
        for context in pending {
            guard let cell = EnvironmentGridCell(latitude: context.latitude, longitude: context.longitude) else { continue }
            groups[CellHour(cell: cell, hour: EnvironmentGridCell.hour(of: context.submittedAt)), default: []].append(context.id)
        }
        var filled = 0
        for (key, contextIDs) in groups {
            let readingID = try await readingRecord(for: key, on: db, now: now).requireID()
            let ready = try await db.transaction { db in
                let sql = db.sql
                // The reading's row locked first (a write that changes nothing), as `fetch` writes it
                // before copying: a fetch finishing meanwhile either copies to these responses too
                // or is seen ready here, so none is assigned to a reading that never fills it.
                try await sql.raw("UPDATE environment_readings SET status = status WHERE id = \(bind: readingID)").run()
                guard let reading = try await EnvironmentReadingRecord.find(readingID, on: db) else { return false }
                var update = sql.update(SurveyResponseContext.schema).set("environment_reading_id", to: readingID)
                if reading.status == .ready {
                    update = update.set("weather", to: reading.weather).set("air_quality", to: reading.airQuality)
                        .set("pollen", to: reading.pollen)
                }
                try await update.where("id", .in, contextIDs).run()
                return reading.status == .ready
            }
            if ready { filled += contextIDs.count }
        }
        return (pending.count, filled)
    }

    /// The reading of a cell-hour, created pending (due at once) when it is the first asked for.
    private static func readingRecord(for key: CellHour, on db: any Database, now: Date) async throws -> EnvironmentReadingRecord {
        func existing() async throws -> EnvironmentReadingRecord? {
            try await EnvironmentReadingRecord.query(on: db)
                .filter(\.$cellRow == key.cell.row).filter(\.$cellColumn == key.cell.column).filter(\.$hour == key.hour)
                .first()
        }
        if let found = try await existing() { return found }
        let record = EnvironmentReadingRecord()
        record.cellRow = key.cell.row
        record.cellColumn = key.cell.column
        record.hour = key.hour
        record.latitude = key.cell.centreLatitude
        record.longitude = key.cell.centreLongitude
        record.status = .pending
        record.attempts = 0
        record.nextAttemptAt = now
        record.createdAt = now
        do {
            try await record.create(on: db)
            return record
        } catch {
            // Another server created it a moment ago (the unique cell-hour): use theirs.
            if let found = try await existing() { return found }
            throw error
        }
    }
}
