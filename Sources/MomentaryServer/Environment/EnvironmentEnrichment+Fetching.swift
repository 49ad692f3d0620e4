import Fluent
import Foundation
import Logging
import MomentaryCore
import SQLKit

extension EnvironmentEnrichment {
    private struct IDRow: Decodable {
        let id: UUID
    }

    /// Pending readings whose time has come, oldest due first (for one study's responses when given).
    static func dueReadings(on db: any Database, study: UUID?, now: Date, limit: Int) async throws -> [EnvironmentReadingRecord] {
        guard let study else {
            return try await EnvironmentReadingRecord.query(on: db)
                .filter(\.$status == .pending).filter(\.$nextAttemptAt <= now)
                .sort(\.$nextAttemptAt).limit(limit).all()
        }
        let ids = try await db.sql.raw("""
            SELECT DISTINCT e.id, e.next_attempt_at FROM environment_readings e
            JOIN response_contexts c ON c.environment_reading_id = e.id
            JOIN responses r ON r.id = c.response_id
            WHERE e.status = \(bind: EnvironmentReadingRecord.Status.pending.rawValue) AND e.next_attempt_at <= \(bind: now)
                AND r.study_id = \(bind: study)
            ORDER BY e.next_attempt_at LIMIT \(literal: limit)
            """).all(decoding: IDRow.self).map(\.id)
        guard !ids.isEmpty else { return [] }
        return try await EnvironmentReadingRecord.query(on: db).filter(\.$id ~~ ids).sort(\.$nextAttemptAt).all()
    }

    /// Fetches one reading and copies it to its responses in one transaction; returns how many
    /// responses were filled, or nil when the provider failed (the reading then waits, or is given up).
    static func fetch(
        _ record: EnvironmentReadingRecord, on db: any Database, provider: any EnvironmentProvider, now: Date, logger: Logger
    ) async throws -> Int? {
        let reading: EnvironmentReading
        switch await outcome(of: provider, for: record) {
        case .success(let fetched): reading = fetched
        case .failure(let failure):
            try await recordFailure(failure, of: record, on: db, now: now, logger: logger)
            return nil
        }
        record.status = .ready
        record.source = reading.source
        record.weather = try reading.weather.map { try jsonText($0) }
        record.airQuality = try reading.airQuality.map { try jsonText($0) }
        record.pollen = try reading.pollen.map { try jsonText($0) }
        record.fetchedAt = now
        record.nextAttemptAt = nil
        record.lastError = nil
        let readingID = try record.requireID()
        return try await db.transaction { db in
            try await record.save(on: db)
            let sql = db.sql
            let count = try await sql.raw("""
                SELECT COUNT(*) AS n FROM response_contexts WHERE environment_reading_id = \(bind: readingID)
                """).first(decoding: CountRow.self)?.n ?? 0
            try await sql.update(SurveyResponseContext.schema)
                .set("weather", to: record.weather).set("air_quality", to: record.airQuality).set("pollen", to: record.pollen)
                .where("environment_reading_id", .equal, readingID)
                .run()
            return count
        }
    }

    private static func outcome(
        of provider: any EnvironmentProvider, for record: EnvironmentReadingRecord
    ) async -> Result<EnvironmentReading, EnvironmentFailure> {
        do throws(EnvironmentFailure) {
            return .success(try await provider.reading(latitude: record.latitude, longitude: record.longitude, hour: record.hour))
        } catch {
            return .failure(error)
        }
    }

    private static func recordFailure(
        _ failure: EnvironmentFailure, of record: EnvironmentReadingRecord, on db: any Database, now: Date, logger: Logger
    ) async throws {
        record.attempts += 1
        record.lastError = String(failure.description.prefix(500))
        let place = "cell \(record.cellRow)/\(record.cellColumn) at \(OpenMeteoHourly.hourText(record.hour))Z"
        if !failure.isRetryable {
            record.status = .unavailable
            record.nextAttemptAt = nil
            logger.warning("No environment for \(place): \(failure); not asked again.")
        } else if record.attempts >= maximumAttempts {
            record.status = .failed
            record.nextAttemptAt = nil
            logger.warning("No environment for \(place) after \(record.attempts) attempts: \(failure); given up until a backfill.")
        } else {
            let wait = backoff(afterAttempt: record.attempts)
            record.nextAttemptAt = now.addingTimeInterval(wait)
            logger.warning("No environment for \(place) yet: \(failure); trying again in \(Int(wait)) s.")
        }
        try await record.save(on: db)
    }

    /// Gives a study's failed and unavailable readings another chance now (a backfill's first step,
    /// after the provider was fixed or its base URL pointed at an archive). Returns how many.
    @discardableResult
    static func retryGivenUp(study: UUID, on db: any Database, now: Date) async throws -> Int {
        let sql = db.sql
        let given: [EnvironmentReadingRecord.Status] = [.failed, .unavailable]
        let ids = try await sql.raw("""
            SELECT DISTINCT e.id FROM environment_readings e
            JOIN response_contexts c ON c.environment_reading_id = e.id
            JOIN responses r ON r.id = c.response_id
            WHERE e.status IN (\(binds: given.map(\.rawValue))) AND r.study_id = \(bind: study)
            """).all(decoding: IDRow.self).map(\.id)
        guard !ids.isEmpty else { return 0 }
        try await EnvironmentReadingRecord.query(on: db).filter(\.$id ~~ ids)
            .set(\.$status, to: .pending).set(\.$attempts, to: 0).set(\.$nextAttemptAt, to: now)
            .update()
        return ids.count
    }

    static func jsonText<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
