import Fluent
import Foundation
import Logging
import MomentaryCore
import SQLKit

extension EnvironmentEnrichment {
    struct BackfillProgress: Sendable, Equatable {
        /// Place-hours the study's responses needed at the start, and how many are done or failed.
        var placeHours = 0
        var fetched = 0
        var failed = 0
        var filled = 0

        var line: String {
            "Environment: \(fetched + failed) of \(placeHours) place-hours asked (\(failed) failed), \(filled) responses filled"
        }
    }

    /// Fills the history of one study: assigns all its located responses, gives readings given up
    /// before another chance, then fetches every due reading once, reporting after each page.
    /// Readings that fail wait for their backoff (the running server or the next backfill retries).
    static func backfill(
        study: UUID, on db: any Database, provider: any EnvironmentProvider, logger: Logger,
        now: @Sendable () -> Date = { Date() }, pageSize: Int = 20, progress: (BackfillProgress) -> Void
    ) async throws -> BackfillProgress {
        var state = BackfillProgress()
        let started = now()
        try await retryGivenUp(study: study, on: db, now: started)
        let assigned = try await run(on: db, provider: provider, now: started, logger: logger, study: study, fetchLimit: 0)
        state.filled = assigned.filled
        state.placeHours = try await countDue(study: study, on: db, now: started)
        progress(state)
        while !Task.isCancelled {
            let page = try await dueReadings(on: db, study: study, now: started, limit: pageSize)
            if page.isEmpty { break }
            for record in page {
                if let filled = try await fetch(record, on: db, provider: provider, now: now(), logger: logger) {
                    state.fetched += 1
                    state.filled += filled
                } else {
                    state.failed += 1
                }
            }
            progress(state)
        }
        return state
    }

    private static func countDue(study: UUID, on db: any Database, now: Date) async throws -> Int {
        try await db.sql.raw("""
            SELECT COUNT(DISTINCT e.id) AS n FROM environment_readings e
            JOIN response_contexts c ON c.environment_reading_id = e.id
            JOIN responses r ON r.id = c.response_id
            WHERE e.status = \(bind: EnvironmentReadingRecord.Status.pending.rawValue) AND e.next_attempt_at <= \(bind: now)
                AND r.study_id = \(bind: study)
            """).first(decoding: CountRow.self)?.n ?? 0
    }
}
