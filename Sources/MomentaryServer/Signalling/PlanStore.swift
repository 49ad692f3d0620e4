import Fluent
import Foundation
import MomentaryCore
import SQLKit

/// The planner's statements. Every planning transaction starts with `lock`, a write to the
/// participant's row: on PostgreSQL it takes the row lock, on SQLite the database's write lock,
/// so two planners (two workers, or the API and a worker) never plan the same day twice.
enum PlanStore {
    static func lock(_ participantID: UUID, on db: any Database) async throws {
        try await db.sql.raw("UPDATE participants SET next_plan_at = next_plan_at WHERE id = \(bind: participantID)").run()
    }

    /// Records how far the participant is planned and when their next day must be planned
    /// (`nil`: not until something changes, e.g. withdrawn or device-scheduled).
    /// `keepPlannedThrough` changes only `next_plan_at`.
    static func setPlan(
        _ participantID: UUID, plannedThrough: LocalDate?, nextPlanAt: Date?, keepPlannedThrough: Bool = false,
        on db: any Database
    ) async throws {
        var update = db.sql.update("participants").set("next_plan_at", to: nextPlanAt)
        if !keepPlannedThrough {
            update = update.set("planned_through", to: plannedThrough?.description)
        }
        try await update.where("id", .equal, participantID).run()
    }

    /// Participants whose planned signalling day has ended, oldest first.
    static func participantsDue(at now: Date, limit: Int, on db: any Database) async throws -> [UUID] {
        try await db.sql.select().column("id").from("participants")
            .where("next_plan_at", .lessThanOrEqual, now)
            .orderBy("next_plan_at").limit(limit)
            .all().map { try $0.decode(column: "id", as: UUID.self) }
    }

    /// Cancels the participant's pending beeps of the given origins due after `after` (all of
    /// them when `after` is nil). Returns how many were cancelled.
    @discardableResult
    static func cancelPending(
        _ participantID: UUID, origins: [Beep.Origin], after: Date?, reason: String, on db: any Database
    ) async throws -> Int {
        PlanChanges.mark(on: db)
        let origins = origins.map(\.rawValue)
        let later: SQLQueryString = after.map { "AND scheduled_at > \(bind: $0)" } ?? ""
        return try await db.sql.raw("""
            UPDATE beeps SET status = \(bind: Beep.Status.cancelled.rawValue), delivery_reason = \(bind: reason)
            WHERE participant_id = \(bind: participantID) AND \(BeepLifecycle.guardClause(from: [.pending], to: .cancelled))
            AND origin IN (\(binds: origins)) \(later) RETURNING id
            """).all().count
    }

    /// Stores planned beeps, numbering each (origin, local date) after the numbers already used
    /// there (cancelled beeps keep theirs, so a replanned day continues the sequence).
    @discardableResult
    static func insert(
        _ planned: [PlannedBeep], participantID: UUID, studyID: UUID, now: Date, on db: any Database
    ) async throws -> [UUID] {
        guard !planned.isEmpty else { return [] }
        PlanChanges.mark(on: db)
        let dates = Set(planned.map(\.localDate.description))
        let rows = try await db.sql.select()
            .column("origin").column("local_date").column(SQLFunction("MAX", args: SQLColumn("sequence")), as: "last")
            .from("beeps")
            .where("participant_id", .equal, participantID)
            .where("local_date", .in, Array(dates))
            .groupBy("origin").groupBy("local_date")
            .all()
        var next = [String: Int]()
        for row in rows {
            let key = try row.decode(column: "origin", as: String.self) + "|" + row.decode(column: "local_date", as: String.self)
            next[key] = try row.decode(column: "last", as: Int.self) + 1
        }
        var beeps = [Beep]()
        // Time-ordered ids, as responses': beeps planned together sit together in the id index
        // (and in the index of responses' beep ids once answered), not one on every page.
        var ids = TimeOrderedUUIDs(at: now)
        for item in planned.sorted(by: { $0.scheduledAt < $1.scheduledAt }) {
            let key = item.origin.rawValue + "|" + item.localDate.description
            let sequence = next[key, default: 0]
            next[key] = sequence + 1
            let beep = Beep(
                participantID: participantID, studyID: studyID, surveyID: item.surveyID, origin: item.origin,
                localDate: item.localDate.description, sequence: sequence, scheduledAt: item.scheduledAt,
                timeZone: item.timeZone, now: now)
            beep.id = ids.next()
            beep.answerWindowMinutes = item.answerWindowMinutes
            beep.requestKey = item.requestKey
            beep.ignoresHours = item.ignoresHours ? true : nil
            beeps.append(beep)
        }
        try await beeps.create(on: db)
        return beeps.compactMap(\.id)
    }
}

extension PlanStore {
    /// When the next participant's day ends (the `next_plan_at` index makes this cheap).
    static func earliestPlanDue(on db: any Database) async throws -> Date? {
        try await db.sql.select().column("next_plan_at").from("participants")
            .where("next_plan_at", .isNot, SQLLiteral.null)
            .orderBy("next_plan_at").limit(1)
            .first()?.decode(column: "next_plan_at", as: Date.self)
    }
}
